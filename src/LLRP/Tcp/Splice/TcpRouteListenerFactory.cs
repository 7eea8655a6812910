using System.Net;
using LLRP.Transport;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Tcp.Splice;

/// <summary>
/// Kestrel's transport for TCP routes' addresses (<see cref="TcpRouteEndPoint"/>) when they have listeners of their own
/// (splice, or <c>transport=epoll</c>): a listening socket whose accepted sockets are the relay's alone
/// (<see cref="TcpRouteConnection"/>), with no receive pending on them.
/// Registered after every other transport, so that Kestrel asks it first.
/// </summary>
internal sealed class TcpRouteListenerFactory : IConnectionListenerFactory, IConnectionListenerFactorySelector
{
    public bool CanBind(EndPoint endpoint) => endpoint is TcpRouteEndPoint;

    public ValueTask<IConnectionListener> BindAsync(EndPoint endpoint, CancellationToken cancellationToken = default)
        => new(new TcpRouteListener(ListeningSocket.Open((IPEndPoint)endpoint)));
}
