using System.Net;
using System.Text;

namespace LLRP.ClientSide;

/// <summary>The client's address as <c>X-Forwarded-For</c> gets it: IPv4-mapped addresses as IPv4.</summary>
internal static class ClientAddress
{
    public static byte[] Of(EndPoint? endPoint)
    {
        if (endPoint is not IPEndPoint ip)
        {
            return "unknown"u8.ToArray();
        }

        var address = ip.Address.IsIPv4MappedToIPv6 ? ip.Address.MapToIPv4() : ip.Address;
        return Encoding.ASCII.GetBytes(address.ToString());
    }
}
