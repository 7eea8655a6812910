using LLRP.Http1;
using System.Text;

namespace LLRP.Routing;

/// <summary>
/// One of a route's hosts, as ASP.NET Core's <c>HostMatcherPolicy</c> reads it: <c>example.com</c>, <c>*.example.com</c>
/// (one or more labels), an IP literal (<c>[::1]</c>), or <c>*</c>, each with an optional <c>:port</c> or <c>:*</c>. A host without a port matches
/// every port. Names compare ignoring ASCII case; IDNs are compared as given (punycode to punycode).
/// </summary>
internal sealed class HostPattern
{
    private readonly byte[]? _name;
    private readonly bool _isWildcard;
    private readonly int _port;

    private HostPattern(byte[]? name, bool isWildcard, int port)
    {
        _name = name;
        _isWildcard = isWildcard;
        _port = port;
    }

    /// <summary>The exact name this pattern requires, or null for a wildcard or any host.</summary>
    public byte[]? ExactName => _isWildcard ? null : _name;

    /// <summary>How specific the pattern is, as ASP.NET Core ranks host edges: lower ranks first (1 exact with port … 6 any).</summary>
    public int Specificity => (_name, _isWildcard, _port >= 0) switch
    {
        (not null, false, true) => 1,
        (not null, false, false) => 2,
        (not null, true, true) => 3,
        (not null, true, false) => 4,
        (null, _, true) => 5,
        (null, _, false) => 6,
    };

    /// <exception cref="ArgumentException"><paramref name="host"/> is not a host pattern.</exception>
    public static HostPattern Parse(string host)
    {
        var nameEnd = host.StartsWith('[') ? host.IndexOf(']') + 1 : host.IndexOf(':') is var colon and >= 0 ? colon : host.Length;
        var portText = host.AsSpan(nameEnd);
        if (nameEnd <= 0 || (!portText.IsEmpty && portText[0] != ':') || portText.Count(':') > 1)
        {
            throw new ArgumentException(
                $"host '{host}' is not a host name, an IP literal in brackets, '*.' and a domain, or '*', with an optional ':port' or ':*'", nameof(host));
        }

        var port = -1;
        if (!portText.IsEmpty && portText[1..] is not "*" && (!int.TryParse(portText[1..], out port) || port is < 0 or > 65535))
        {
            throw new ArgumentException($"host '{host}' has a port that is not a number from 0 to 65535 or '*'", nameof(host));
        }

        var name = host[..nameEnd];
        return name == "*"
            ? new HostPattern(null, false, port)
            : name.StartsWith("*.", StringComparison.Ordinal)
                ? new HostPattern(Encoding.UTF8.GetBytes(name[1..]), true, port)
                : new HostPattern(Encoding.UTF8.GetBytes(name), false, port);
    }

    public bool Matches(scoped in RequestAuthority authority)
    {
        if (_port >= 0 && authority.Port != _port)
        {
            return false;
        }

        var name = authority.Name;
        if (_name is null)
        {
            return true;
        }

        if (!_isWildcard)
        {
            return AsciiCase.EqualsIgnoreCase(name, _name);
        }

        return name.Length > _name.Length
            && name[0] != (byte)'.'
            && name.IndexOf(".."u8) < 0
            && AsciiCase.EqualsIgnoreCase(name[^_name.Length..], _name);
    }
}
