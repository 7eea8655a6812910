using System.Diagnostics.Metrics;

namespace LLRP.Diagnostics;

/// <summary>
/// The TCP front end's instruments, on the same <c>LLRP</c> meter, each tagged with its route (<c>route</c>). Connect
/// failures by destination are <c>llrp.destination.failures</c>, which passive health counts, as for requests.
/// </summary>
internal sealed class TcpMetrics
{
    private readonly Counter<long> _connections;
    private readonly UpDownCounter<long> _active;
    private readonly Counter<long> _bytesFromClients;
    private readonly Counter<long> _bytesToClients;
    private readonly Counter<long> _refused;

    public TcpMetrics(ProxyMetrics metrics)
    {
        var meter = metrics.Meter;
        _connections = meter.CreateCounter<long>("llrp.tcp.connections", "{connection}", "Client connections a TCP route took to relay (not those over its MaxConnections).");
        _active = meter.CreateUpDownCounter<long>("llrp.tcp.active_connections", "{connection}", "Client connections a TCP route is relaying or connecting.");
        _bytesFromClients = meter.CreateCounter<long>("llrp.tcp.bytes_received", "By", "Bytes read from clients and relayed to destinations.");
        _bytesToClients = meter.CreateCounter<long>("llrp.tcp.bytes_sent", "By", "Bytes read from destinations and relayed to clients.");
        _refused = meter.CreateCounter<long>("llrp.tcp.refused_connections", "{connection}", "Client connections closed unrelayed, by reason: over MaxConnections, or no destination connected.");
    }

    public void Opened(KeyValuePair<string, object?> route)
    {
        _connections.Add(1, route);
        _active.Add(1, route);
    }

    public void Closed(KeyValuePair<string, object?> route, long fromClient, long toClient)
    {
        _active.Add(-1, route);
        _bytesFromClients.Add(fromClient, route);
        _bytesToClients.Add(toClient, route);
    }

    public void Refused(KeyValuePair<string, object?> route, string reason) => _refused.Add(1, route, new KeyValuePair<string, object?>("reason", reason));
}
