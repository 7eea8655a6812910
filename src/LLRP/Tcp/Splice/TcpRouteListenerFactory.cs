using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Tcp.Splice;

/// <summary>
/// Kestrel's transport for TCP routes' addresses (<see cref="TcpRouteEndPoint"/>) when they relay with splice: a listening
/// socket whose accepted sockets are the relay's alone (<see cref="TcpRouteConnection"/>), with no receive pending on them.
/// Registered after every other transport, so that Kestrel asks it first.
/// </summary>
internal sealed class TcpRouteListenerFactory : IConnectionListenerFactory, IConnectionListenerFactorySelector
{
    private const int Backlog = 512;

    public bool CanBind(EndPoint endpoint) => endpoint is TcpRouteEndPoint;

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
        return new ValueTask<IConnectionListener>(new TcpRouteListener(socket));
    }
}
