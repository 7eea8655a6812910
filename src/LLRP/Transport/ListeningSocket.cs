using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Transport;

/// <summary>A listening socket bound as Kestrel's sockets transport binds one: an IPv6 wildcard takes IPv4 too.</summary>
internal static class ListeningSocket
{
    private const int Backlog = 512;
    private const int SolSocket = 1;
    private const int SoReusePort = 15;

    /// <param name="reusePort">Whether other sockets of this process may bind the same address (<c>SO_REUSEPORT</c>, Linux), the kernel spreading the connections over them.</param>
    /// <exception cref="AddressInUseException">The address is taken, which Kestrel reports as such.</exception>
    /// <exception cref="SocketException">The system refuses <paramref name="reusePort"/>.</exception>
    public static Socket Open(IPEndPoint endpoint, bool reusePort = false)
    {
        var socket = new Socket(endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        if (endpoint.Address.Equals(IPAddress.IPv6Any))
        {
            socket.DualMode = true;
        }

        if (reusePort)
        {
            try
            {
                socket.SetRawSocketOption(SolSocket, SoReusePort, [1, 0, 0, 0]);
            }
            catch
            {
                socket.Dispose();
                throw;
            }
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
