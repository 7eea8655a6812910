using System.Diagnostics;
using System.Net;
using LLRP.Configuration.Routes;
using LLRP.ProxyProtocol;
using LLRP.Routing;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Tcp;

/// <summary>
/// Kestrel hands every connection accepted on a TCP route's address here when the route's relays copy (no splice). Each
/// one takes the route's steps (<see cref="TcpRouteConnections"/>):
/// 1. is closed at once (FIN, as the handler returns) past the route's <c>MaxConnections</c>, or when the route accepts
///    the PROXY protocol and its header is refused (<see cref="ProxyHeaderReader"/>); the address a header carries is the
///    client's from then on (the access log, the PROXY header sent on);
/// 2. is given a destination of the route's cluster, connected (<see cref="RelayRouting"/>: balancing, health, the
///    destination's limit, another destination after a connect failure) and sent the cluster's PROXY protocol header,
///    or closed when none connects;
/// 3. is relayed both ways by the copy loop (<see cref="TcpRelay"/>) until both sides are done;
/// 4. is counted, and logged in one access log line.
/// </summary>
internal sealed class TcpConnectionHandler(TcpRouteConnections connections)
{
    private TcpServices Services => connections.Services;

    public async Task OnConnectedAsync(ConnectionContext connection)
    {
        var route = connections.Route();
        var start = Stopwatch.GetTimestamp();
        if (!connections.TryEnter(route, connection.RemoteEndPoint, start))
        {
            return;
        }

        try
        {
            await RelayAsync(connection, route, start);
        }
        finally
        {
            connections.Exit();
        }
    }

    private async Task RelayAsync(ConnectionContext connection, TcpRoute route, long start)
    {
        var client = connection.RemoteEndPoint as IPEndPoint;
        var local = connection.LocalEndPoint as IPEndPoint;
        ProxyHeader received = default;
        if (route.Options.AcceptProxyProtocol)
        {
            (received, var refused, var detail) = await ProxyHeaderReader.ReadAsync(connection, route.Options.TrustedNetworks, route.Options.ProxyProtocolTimeout);
            if (refused is not null)
            {
                connections.HeaderRefused(route, client, refused, detail!, start);
                return;
            }

            if (received.Source is { } source)
            {
                (client, local) = (source, received.Destination);
            }
        }

        var header = ProxyHeaderWriter.HeaderOf(route.Cluster.Options.ProxyProtocol, client, local, received.Alpn, received.Authority);
        var timeout = route.Options.ConnectTimeout;
        var target = await RelayRouting.ConnectAsync(route.Cluster, destination => Services.Connector.ConnectAsync(destination, timeout, header), Services.Routing);
        if (target.Connection is not { } upstream)
        {
            connections.NoUpstream(route, client, target.Destination, start, received);
            return;
        }

        var relay = new TcpRelay(connection, upstream, route.Options.IdleTimeout);
        Services.Relays.Add(relay);
        try
        {
            await relay.RunAsync();
        }
        finally
        {
            Services.Relays.Remove(relay);
            connections.Ended(route, client, target.Destination, relay.End, relay.FromClient, relay.ToClient, start, received);
        }
    }
}
