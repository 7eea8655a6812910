using System.Net;
using LLRP.Tcp.Loop;
using LLRP.Transport;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Tcp.Splice;

/// <summary>
/// Kestrel's transport for TCP routes' addresses (<see cref="TcpRouteEndPoint"/>) when they have listeners of their own:
/// with splice, the relay loops' own listening sockets (<see cref="LoopRouteListener"/>), whose connections never reach
/// Kestrel; with <c>transport=epoll</c> and no splice, a listening socket whose accepted sockets are the copy loop's alone
/// (<see cref="TcpRouteConnection"/>), with no receive pending on them.
/// Registered after every other transport, so that Kestrel asks it first.
/// </summary>
/// <param name="loops">The relay loops; null when TCP routes do not splice.</param>
/// <param name="shutdownTimeout">How long a graceful stop lets the loops' relays run.</param>
internal sealed class TcpRouteListenerFactory(RelayLoops? loops, TimeSpan shutdownTimeout) : IConnectionListenerFactory, IConnectionListenerFactorySelector
{
    public bool CanBind(EndPoint endpoint) => endpoint is TcpRouteEndPoint;

    public ValueTask<IConnectionListener> BindAsync(EndPoint endpoint, CancellationToken cancellationToken = default)
    {
        var route = (TcpRouteEndPoint)endpoint;
        return new(loops is null
            ? new TcpRouteListener(ListeningSocket.Open(route))
            : LoopRouteListener.Bind(route, loops, route.Connections, shutdownTimeout));
    }
}
