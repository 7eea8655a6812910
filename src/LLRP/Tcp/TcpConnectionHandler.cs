using System.Buffers;
using System.Diagnostics;
using System.Net;
using LLRP.ClientSide;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics.AccessLogging;
using LLRP.ProxyProtocol;
using LLRP.Routing;
using LLRP.Routing.Destinations;
using LLRP.Tcp.Loop;
using LLRP.Tcp.Splice;
using LLRP.Transport.Epoll;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Connections.Features;

namespace LLRP.Tcp;

/// <summary>
/// Kestrel hands every connection accepted on a TCP route's address here. Each one:
/// 1. is closed at once (FIN, as the handler returns) past the route's <c>MaxConnections</c>, or when the route accepts
///    the PROXY protocol and its header is refused (<see cref="ProxyHeaderReader"/>); the address a header carries is the
///    client's from then on (the access log, the PROXY header sent on);
/// 2. is given a destination of the route's cluster, connected (<see cref="RelayRouting"/>: balancing, health, the
///    destination's limit, another destination after a connect failure) and sent the cluster's PROXY protocol header,
///    or closed when none connects;
/// 3. is relayed both ways until both sides are done: spliced on an event loop (<see cref="LoopRelay"/>, whose loop also
///    opened the upstream connection) when TCP routes splice, else by the copy loop (<see cref="TcpRelay"/>);
/// 4. is counted, and logged in one access log line.
/// The route is looked up in the current table by each connection, so a reload's cluster and settings apply to the next one.
/// </summary>
/// <param name="routeId">The TCP route whose address this handler serves.</param>
internal sealed class TcpConnectionHandler(string routeId, TcpServices services)
{
    private int _open;

    public async Task OnConnectedAsync(ConnectionContext connection)
    {
        var route = services.Router.Current.FindTcpRoute(routeId)
            ?? throw new InvalidOperationException($"TCP route {routeId} is not in the routing table: a reload may not remove a TCP route whose address is bound.");
        var start = Stopwatch.GetTimestamp();
        var max = route.Options.MaxConnections;
        if (max > 0 && Interlocked.Increment(ref _open) > max)
        {
            Interlocked.Decrement(ref _open);
            services.Metrics.Refused(route.Tag, TcpAccessLog.Word(TcpRelayEnd.RouteLimit));
            Log(connection.RemoteEndPoint, route, null, TcpAccessLog.Word(TcpRelayEnd.RouteLimit), 0, 0, start);
            return;
        }

        try
        {
            await RelayAsync(connection, route, start);
        }
        finally
        {
            if (max > 0)
            {
                Interlocked.Decrement(ref _open);
            }
        }
    }

    private async Task RelayAsync(ConnectionContext connection, TcpRoute route, long start)
    {
        services.Metrics.Opened(route.Tag);
        var client = connection.RemoteEndPoint as IPEndPoint;
        var local = connection.LocalEndPoint as IPEndPoint;
        ProxyHeader received = default;
        if (route.Options.AcceptProxyProtocol)
        {
            (received, var refused, var detail) = await ProxyHeaderReader.ReadAsync(connection, route.Options.TrustedNetworks, route.Options.ProxyProtocolTimeout);
            if (refused is not null)
            {
                services.Metrics.Refused(route.Tag, refused);
                services.Metrics.Closed(route.Tag, 0, 0);
                services.Log.ProxyHeaderRefused(route.Id, client?.ToString(), detail!);
                Log(client, route, null, refused, 0, 0, start, received);
                return;
            }

            if (received.Source is { } source)
            {
                (client, local) = (source, received.Destination);
            }
        }

        var header = ProxyHeaderWriter.HeaderOf(route.Cluster.Options.ProxyProtocol, client, local, received.Alpn, received.Authority);
        var (relay, destination) = services.Loops is { } loops
            ? await ConnectOnLoopAsync(connection, route, header, loops.Next())
            : await ConnectAsync(connection, route, header);
        if (relay is null)
        {
            services.Metrics.Refused(route.Tag, TcpAccessLog.Word(TcpRelayEnd.NoUpstream));
            services.Metrics.Closed(route.Tag, 0, 0);
            Log(client, route, destination?.Name, TcpAccessLog.Word(TcpRelayEnd.NoUpstream), 0, 0, start, received);
            return;
        }

        services.Relays.Add(relay);
        try
        {
            await relay.RunAsync();
        }
        finally
        {
            services.Relays.Remove(relay);
            destination!.Exit();
            services.Metrics.Closed(route.Tag, relay.FromClient, relay.ToClient);
            Log(client, route, destination.Name, TcpAccessLog.Word(relay.End), relay.FromClient, relay.ToClient, start, received);
        }
    }

    /// <summary>The copy loop's relay: the upstream connection opened on .NET's sockets.</summary>
    /// <returns>The relay, or null when no destination connected; the destination connected to, or the last one tried.</returns>
    private async ValueTask<(ITcpRelay? Relay, Destination? Destination)> ConnectAsync(ConnectionContext connection, TcpRoute route, ReadOnlyMemory<byte> header)
    {
        var timeout = route.Options.ConnectTimeout;
        var target = await RelayRouting.ConnectAsync(route.Cluster, destination => services.Connector.ConnectAsync(destination, timeout, header), services.Routing);
        return (target.Connection is { } upstream ? new TcpRelay(connection, upstream, route.Options.IdleTimeout) : null, target.Destination);
    }

    /// <summary>
    /// The spliced relay on <paramref name="loop"/>, where its upstream connection is opened; the bytes read from the client
    /// before it (past a PROXY protocol header) go first.
    /// </summary>
    private async ValueTask<(ITcpRelay? Relay, Destination? Destination)> ConnectOnLoopAsync(ConnectionContext connection, TcpRoute route, ReadOnlyMemory<byte> header, EventLoop loop)
    {
        var timeout = route.Options.ConnectTimeout;
        var target = await RelayRouting.ConnectAsync(route.Cluster, destination => services.LoopConnector!.ConnectAsync(loop, destination, timeout, header), services.Routing);
        if (target.Connection is not { } upstream)
        {
            return (null, target.Destination);
        }

        var socket = connection.Features.Get<IConnectionSocketFeature>()?.Socket
            ?? throw new InvalidOperationException("A TCP route's connection has no socket: its address is bound by the TCP routes' own listener.");
        return (new LoopRelay(upstream, socket, ReadAhead(connection), route.Options.IdleTimeout, services.Pipes), target.Destination);
    }

    /// <summary>The bytes read from the client and not consumed (past a PROXY protocol header), or null when nothing read its socket.</summary>
    private static byte[]? ReadAhead(ConnectionContext connection)
    {
        if (connection is not TcpRouteConnection { ReadInput: { } input } || !input.TryRead(out var result))
        {
            return null;
        }

        var bytes = result.Buffer.IsEmpty ? null : result.Buffer.ToArray();
        input.AdvanceTo(result.Buffer.End);
        return bytes;
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
