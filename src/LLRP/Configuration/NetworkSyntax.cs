using System.Net;
using System.Net.Sockets;

namespace LLRP.Configuration;

/// <summary>The networks a key of trusted networks lists: CIDRs whose address is their network's, or single addresses.</summary>
public static class NetworkSyntax
{
    /// <summary>What such a key takes, for its error message.</summary>
    public const string Allowed = "networks in CIDR notation, each address its network's (10.0.0.0/8, fd00::/8), or single addresses";

    /// <summary>A CIDR whose address is its network's (<c>10.0.0.1/8</c> is refused as a likely typo), or one address; null for anything else.</summary>
    public static IPNetwork? Parse(string value)
    {
        var text = value.Trim();
        var slash = text.IndexOf('/');
        return slash < 0
            ? IPAddress.TryParse(text, out var address) ? new IPNetwork(address, address.AddressFamily == AddressFamily.InterNetwork ? 32 : 128) : null
            : IPNetwork.TryParse(text, out var network) && IPAddress.TryParse(text.AsSpan(0, slash), out var start) && network.BaseAddress.Equals(start) ? network : null;
    }

    /// <summary>Whether <paramref name="address"/> (an IPv4-mapped IPv6 address as IPv4) is in one of <paramref name="networks"/>.</summary>
    public static bool Contains(IReadOnlyList<IPNetwork> networks, IPAddress address)
    {
        var client = address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address;
        foreach (var network in networks)
        {
            if (network.Contains(client))
            {
                return true;
            }
        }

        return false;
    }
}
