using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>Hosts as routes name them: <c>host</c> or <c>host:port</c>, the host a name, an address literal, or a wildcard.</summary>
internal static class HostSyntax
{
    /// <summary>
    /// A name (<c>example.com</c>, IDN allowed), an IPv4 literal or a bracketed IPv6 literal, with an optional port 1..65535;
    /// with <paramref name="wildcards"/>, also <c>*.example.com</c> (one or more labels), <c>*</c> (any host) and the port
    /// <c>*</c> (any port), as ASP.NET Core's host matching reads them.
    /// </summary>
    public static bool IsValid(string value, bool wildcards)
    {
        var (host, port) = Split(value);
        if (port is not null && !(wildcards && port == "*") && !(int.TryParse(port, NumberStyles.None, CultureInfo.InvariantCulture, out var number) && number is >= 1 and <= 65535))
        {
            return false;
        }

        if (host.StartsWith('['))
        {
            return host.EndsWith(']') && IPAddress.TryParse(host[1..^1], out var address) && address.AddressFamily == AddressFamily.InterNetworkV6;
        }

        if (wildcards && host == "*")
        {
            return true;
        }

        var name = wildcards && host.StartsWith("*.", StringComparison.Ordinal) ? host[2..] : host;
        return name.Length > 0 && !name.Contains('*') && Uri.CheckHostName(name) is UriHostNameType.Dns or UriHostNameType.IPv4;
    }

    private static (string Host, string? Port) Split(string value)
    {
        var colon = value.LastIndexOf(':');
        return colon < 0 || (value.StartsWith('[') && colon < value.LastIndexOf(']'))
            ? (value, null)
            : (value[..colon], value[(colon + 1)..]);
    }
}
