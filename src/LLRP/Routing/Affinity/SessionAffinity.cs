using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using LLRP.Configuration.Routes;
using LLRP.Http1;

namespace LLRP.Routing.Affinity;

/// <summary>
/// A cluster's session affinity: the key of the destination a client was sent to travels in a cookie (RFC 6265) or a
/// header the proxy sets on the response, and brings the client's next requests back to it while it is available. The
/// key is opaque: the first 16 hex digits of a SHA-256 of the cluster and the destination, stable across restarts and
/// reloads, so no destination address reaches the client.
/// </summary>
internal sealed class SessionAffinity
{
    private readonly byte[] _name;

    public SessionAffinity(string clusterId, SessionAffinityOptions options)
    {
        ClusterId = clusterId;
        Options = options;
        _name = Encoding.ASCII.GetBytes(options.KeyName);
    }

    public string ClusterId { get; }

    public SessionAffinityOptions Options { get; }

    /// <summary>The key a destination of this cluster is known by to clients.</summary>
    public byte[] KeyOf(string destinationKey)
        => Encoding.ASCII.GetBytes(Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes($"{ClusterId}\n{destinationKey}")))[..16]);

    /// <summary>The whole field line that sends <paramref name="key"/> to the client: <c>Set-Cookie</c> with the cookie's attributes, or the header.</summary>
    public byte[] FieldLine(byte[] key)
    {
        var value = Encoding.ASCII.GetString(key);
        if (Options.Policy == AffinityPolicy.CustomHeader)
        {
            return Encoding.ASCII.GetBytes($"{Options.KeyName}: {value}\r\n");
        }

        var cookie = Options.Cookie;
        var line = new StringBuilder("Set-Cookie: ").Append(Options.KeyName).Append('=').Append(value);
        line.Append("; path=").Append(cookie.Path);
        if (cookie.Domain is { } domain)
        {
            line.Append("; domain=").Append(domain);
        }

        if (cookie.MaxAge is { } maxAge)
        {
            line.Append("; max-age=").Append(((long)maxAge.TotalSeconds).ToString(CultureInfo.InvariantCulture));
        }

        if (cookie.Secure)
        {
            line.Append("; secure");
        }

        if (cookie.SameSite is { } sameSite)
        {
            line.Append("; samesite=").Append(sameSite.ToLowerInvariant());
        }

        if (cookie.HttpOnly)
        {
            line.Append("; httponly");
        }

        return Encoding.ASCII.GetBytes(line.Append("\r\n").ToString());
    }

    /// <summary>The key the request carries, or empty: the value of the cookie so named (RFC 6265 §5.4), or of the header.</summary>
    public ReadOnlySpan<byte> FindKey(RequestHead head)
    {
        var source = head.Source.Span;
        var cookies = Options.Policy == AffinityPolicy.Cookie;
        foreach (ref readonly var field in head.Fields)
        {
            var name = field.Name(source);
            if (cookies && Ascii.EqualsIgnoreCase(name, "Cookie"u8))
            {
                var value = CookieValue(field.Value(source));
                if (!value.IsEmpty)
                {
                    return value;
                }
            }
            else if (!cookies && Ascii.EqualsIgnoreCase(name, _name))
            {
                return field.Value(source);
            }
        }

        return default;
    }

    /// <summary>The value of the cookie named as the key in one <c>Cookie</c> line (<c>a=1; b=2</c>), or empty.</summary>
    private ReadOnlySpan<byte> CookieValue(ReadOnlySpan<byte> line)
    {
        while (!line.IsEmpty)
        {
            var end = line.IndexOf((byte)';');
            var pair = (end < 0 ? line : line[..end]).Trim((byte)' ');
            line = end < 0 ? default : line[(end + 1)..];
            var equals = pair.IndexOf((byte)'=');
            if (equals > 0 && pair[..equals].SequenceEqual(_name))
            {
                return pair[(equals + 1)..].Trim((byte)'"');
            }
        }

        return default;
    }
}
