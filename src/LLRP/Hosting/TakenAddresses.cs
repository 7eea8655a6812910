using System.Net;
using System.Net.Sockets;
using LLRP.Configuration.Routes;
using Microsoft.AspNetCore.Http;

namespace LLRP.Hosting;

/// <summary>
/// Which of a key's addresses another socket holds (<c>urls</c>, <c>admin.urls</c>, a TCP route's <c>Listen</c>), found after
/// Kestrel failed to bind one (its error names the address but not the key): each address is bound as
/// <see cref="ProxyEndpoints.Bind"/> binds it, by a socket closed at once.
/// </summary>
internal static class TakenAddresses
{
    /// <summary>The first of the <c>;</c>-separated <paramref name="urls"/> that cannot be bound because its address is in use; null when none.</summary>
    public static string? First(string? urls)
        => urls?.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .FirstOrDefault(url => EndPoints(BindingAddress.Parse(url)).Any(IsTaken));

    /// <summary>The first of <paramref name="routes"/> whose listen address cannot be bound because it is in use; null when none.</summary>
    public static TcpRouteOptions? FirstTcpRoute(IReadOnlyList<TcpRouteOptions> routes)
        => routes.FirstOrDefault(route => route.Listen.Port != 0 && IsTaken(route.Listen));

    private static IEnumerable<IPEndPoint> EndPoints(BindingAddress address)
    {
        if (address.IsUnixPipe || address.Port == 0)
        {
            return [];
        }

        if (string.Equals(address.Host, "localhost", StringComparison.OrdinalIgnoreCase))
        {
            return [new IPEndPoint(IPAddress.Loopback, address.Port), new IPEndPoint(IPAddress.IPv6Loopback, address.Port)];
        }

        return [new IPEndPoint(IPAddress.TryParse(address.Host, out var ip) ? ip : IPAddress.IPv6Any, address.Port)];
    }

    private static bool IsTaken(IPEndPoint endPoint)
    {
        using var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            if (endPoint.Address.Equals(IPAddress.IPv6Any))
            {
                socket.DualMode = true;
            }

            socket.Bind(endPoint);
            return false;
        }
        catch (SocketException e)
        {
            return e.SocketErrorCode == SocketError.AddressAlreadyInUse;
        }
    }
}
