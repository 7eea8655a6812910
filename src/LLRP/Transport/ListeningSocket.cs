using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Transport;

/// <summary>A listening socket bound as Kestrel's sockets transport binds one: an IPv6 wildcard takes IPv4 too.</summary>
internal static class ListeningSocket
{
    private const int Backlog = 512;

    /// <exception cref="AddressInUseException">The address is taken, which Kestrel reports as such.</exception>
    public static Socket Open(IPEndPoint endpoint)
    {
        var socket = new Socket(endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        if (endpoint.Address.Equals(IPAddress.IPv6Any))
        {
            socket.DualMode = true;
        }

        try
        {
            socket.Bind(endpoint);
        }
        catch (SocketException e) when (e.SocketErrorCode == SocketError.AddressAlreadyInUse)
        {
            socket.Dispose();
            throw new AddressInUseException(e.Message, e);
        }

        socket.Listen(Backlog);
        return socket;
    }
}
