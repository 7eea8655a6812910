using System.Diagnostics;
using System.Net;
using LLRP.ClientSide;
using LLRP.Configuration.Routes;
using LLRP.Routing;
using LLRP.Diagnostics.AccessLogging;
using LLRP.ProxyProtocol;
using LLRP.Routing.Destinations;

namespace LLRP.Tcp;

/// <summary>
/// The client connections of one TCP route, and the steps each takes whichever relay moves its bytes (the copy loop of
/// <see cref="TcpConnectionHandler"/>, or the relay loops' own listeners of <see cref="Loop.LoopRelay"/>):
/// 1. the route is looked up in the current table by each connection, so a reload's cluster and settings apply to the next one;
/// 2. past the route's <c>MaxConnections</c> it is refused, counted and logged, unrelayed;
/// 3. a refused PROXY protocol header, or no destination connected, ends it counted and logged, unrelayed;
/// 4. a relay's end releases its destination's slot, and is counted and logged in one access log line.
/// </summary>
/// <param name="routeId">The TCP route whose address these connections came to.</param>
internal sealed class TcpRouteConnections(string routeId, TcpServices services)
{
    private int _open;

    public TcpServices Services => services;

    /// <summary>The route's connections counted in and not yet ended.</summary>
    public int Open => Volatile.Read(ref _open);

    public TcpRoute Route()
        => services.Router.Current.FindTcpRoute(routeId)
            ?? throw new InvalidOperationException($"TCP route {routeId} is not in the routing table: a reload may not remove a TCP route whose address is bound.");

    /// <summary>
    /// Whether a connection of <paramref name="route"/> has its client's address used: by the access log, by a PROXY
    /// protocol header received (only from trusted networks) or sent. Else a relay need not make it.
    /// </summary>
    public bool UsesClientAddress(TcpRoute route)
        => services.AccessLog is not null || route.Options.AcceptProxyProtocol || route.Cluster.Options.ProxyProtocol != ProxyProtocolVersion.None;

    /// <summary>Counts a new connection in, unless the route has <c>MaxConnections</c> open: then it is refused, counted and logged.</summary>
    /// <returns>Whether it is taken; one taken is counted out by <see cref="Exit"/>.</returns>
    public bool TryEnter(TcpRoute route, EndPoint? client, long start)
    {
        var max = route.Options.MaxConnections;
        if (Interlocked.Increment(ref _open) > max && max > 0)
        {
            Interlocked.Decrement(ref _open);
            services.Metrics.Refused(route.Tag, TcpAccessLog.Word(TcpRelayEnd.RouteLimit));
            Log(client, route, null, TcpAccessLog.Word(TcpRelayEnd.RouteLimit), 0, 0, start);
            return false;
        }

        services.Metrics.Opened(route.Tag);
        return true;
    }

    public void Exit() => Interlocked.Decrement(ref _open);

    /// <summary>The PROXY protocol header the connection was to start with is refused (<paramref name="refused"/>, the reason tag).</summary>
    public void HeaderRefused(TcpRoute route, EndPoint? client, string refused, string detail, long start)
    {
        services.Metrics.Refused(route.Tag, refused);
        services.Metrics.Closed(route.Tag, 0, 0);
        services.Log.ProxyHeaderRefused(route.Id, client?.ToString(), detail);
        Log(client, route, null, refused, 0, 0, start);
    }

    /// <param name="destination">The last destination tried; null when none was available.</param>
    /// <param name="header">The connection's PROXY protocol header, when the route accepts one.</param>
    public void NoUpstream(TcpRoute route, EndPoint? client, Destination? destination, long start, in ProxyHeader header)
    {
        services.Metrics.Refused(route.Tag, TcpAccessLog.Word(TcpRelayEnd.NoUpstream));
        services.Metrics.Closed(route.Tag, 0, 0);
        Log(client, route, destination?.Name, TcpAccessLog.Word(TcpRelayEnd.NoUpstream), 0, 0, start, header);
    }

    /// <summary>A relay ended: its destination's slot is released (unless none was held), and it is counted and logged.</summary>
    /// <param name="held">The destination whose slot the relay held; null when it ended before one was connected.</param>
    /// <param name="header">The connection's PROXY protocol header, when the route accepts one.</param>
    public void Ended(TcpRoute route, EndPoint? client, Destination? held, TcpRelayEnd end, long fromClient, long toClient, long start, in ProxyHeader header)
    {
        held?.Exit();
        services.Metrics.Closed(route.Tag, fromClient, toClient);
        Log(client, route, held?.Name, TcpAccessLog.Word(end), fromClient, toClient, start, header);
    }

    /// <param name="client">The client's address: the connection's, or the one its PROXY protocol header carried.</param>
    /// <param name="header">The connection's PROXY protocol header, whose ALPN and authority the line has when the route accepts one.</param>
    private void Log(EndPoint? client, TcpRoute route, string? destination, string end, long received, long sent, long start, in ProxyHeader header = default)
        => services.AccessLog?.Write(new TcpSessionRecord(
            ClientAddress.Of(client),
            DateTime.UtcNow,
            route.Id,
            destination,
            received,
            sent,
            (long)Stopwatch.GetElapsedTime(start).TotalMilliseconds,
            end,
            route.Options.AcceptProxyProtocol,
            header.Alpn,
            header.Authority));
}
