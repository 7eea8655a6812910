using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Transport.Epoll;

/// <summary>
/// Kestrel's transport for IP endpoints when <c>transport=epoll</c>: it binds and listens as Kestrel's sockets transport
/// does (an IPv6 wildcard also takes IPv4), and serves accepted connections on <see cref="EpollTransport"/>. Unix sockets
/// stay with the sockets transport.
/// </summary>
internal sealed class EpollListenerFactory(EpollTransport transport) : IConnectionListenerFactory, IConnectionListenerFactorySelector
{
    private const int Backlog = 512;

    public bool CanBind(EndPoint endpoint) => endpoint is IPEndPoint;

    public ValueTask<IConnectionListener> BindAsync(EndPoint endpoint, CancellationToken cancellationToken = default)
    {
        var ip = (IPEndPoint)endpoint;
        var socket = new Socket(ip.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        if (ip.Address.Equals(IPAddress.IPv6Any))
        {
            socket.DualMode = true;
        }

        try
        {
            socket.Bind(ip);
        }
        catch (SocketException e) when (e.SocketErrorCode == SocketError.AddressAlreadyInUse)
        {
            socket.Dispose();
            throw new AddressInUseException(e.Message, e);
        }

        socket.Listen(Backlog);
        return new ValueTask<IConnectionListener>(new EpollConnectionListener(socket, transport));
    }
}
