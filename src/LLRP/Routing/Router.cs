using System.Diagnostics.Metrics;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Routing.Destinations;

namespace LLRP.Routing;

/// <summary>
/// The current <see cref="RoutingTable"/>, replaced as a whole when the configuration reloads (<see cref="Update"/>):
/// open client connections go on with the new table from their next batch. Publishes each destination's health, requests
/// in flight and queue as observable gauges of the <c>LLRP</c> meter, tagged with its cluster; the series of a removed
/// destination end with it.
/// </summary>
internal sealed class Router
{
    private readonly Lock _updates = new();
    private volatile RoutingTable _current;
    private volatile CancellationTokenSource _replaced = new();

    public Router(RoutingOptions options, ProxyMetrics metrics)
    {
        _current = RoutingTable.Build(options, previous: null);
        metrics.Meter.CreateObservableGauge("llrp.destination.healthy", () => Measure(d => d.IsAvailable(Environment.TickCount64) ? 1 : 0), "{destination}", "1 while the destination takes requests, 0 while ejected or probed down.");
        metrics.Meter.CreateObservableGauge("llrp.destination.active_requests", () => Measure(d => d.ActiveRequests), "{request}", "Requests in flight to the destination.");
        metrics.Meter.CreateObservableGauge("llrp.destination.queued", () => Measure(d => d.Queued), "{request}", "Requests waiting for a slot of the destination's limit.");
    }

    public RoutingTable Current => _current;

    /// <summary>
    /// Cancelled when <see cref="Update"/> replaces the table that is current now: what waits on the table's settings (the
    /// active health probes) reads this before <see cref="Current"/> and wakes when they may have changed.
    /// </summary>
    public CancellationToken Replaced => _replaced.Token;

    /// <summary>
    /// Replaces the table with the one of <paramref name="options"/>; clusters whose settings stay keep their
    /// destinations' state. Returns the routes and clusters now, as the reload's log line gives them.
    /// </summary>
    public string Update(RoutingOptions options)
    {
        lock (_updates)
        {
            _current = RoutingTable.Build(options, _current);
            var replaced = _replaced;
            _replaced = new CancellationTokenSource();
            replaced.Cancel();
            return Describe(_current);
        }
    }

    /// <summary>True when at least one destination of some cluster takes requests.</summary>
    public bool AnyAvailable(long now) => _current.Clusters.Any(cluster => cluster.Destinations.AnyAvailable(now));

    /// <summary>Each route with its cluster, each cluster with its destinations and weights.</summary>
    private static string Describe(RoutingTable table)
        => string.Join(' ', table.Routes.Select(route => $"{route.Id}->{route.Cluster.Id}").Concat(table.TcpRoutes.Select(route => $"tcp:{route.Id}->{route.Cluster.Id}")))
           + " " + string.Join(' ', table.Clusters.Select(cluster =>
               $"{cluster.Id}=[{string.Join(';', cluster.Destinations.Current.Select(d => d.Weight == 1 ? d.Name : $"{d.Name}|w={d.Weight}"))}]"));

    private IEnumerable<Measurement<int>> Measure(Func<Destination, int> value)
        => _current.Clusters.SelectMany(cluster => cluster.Destinations.Current.Select(d => new Measurement<int>(value(d), cluster.Tag, d.Tag)));
}
