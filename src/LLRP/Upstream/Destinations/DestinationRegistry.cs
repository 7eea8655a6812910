using System.Diagnostics.Metrics;
using LLRP.Configuration;
using LLRP.Diagnostics;

namespace LLRP.Upstream.Destinations;

/// <summary>
/// The current set of destinations, replaced as a whole when the configuration reloads (<see cref="Update"/>): readers
/// take the array they find and never see a half-made set. A destination that stays keeps its object and state.
/// Publishes each destination's health, requests in flight and queue as observable gauges of the <c>LLRP</c> meter.
/// </summary>
internal sealed class DestinationRegistry
{
    private readonly ProxyOptions _options;
    private readonly Lock _updates = new();
    private volatile Destination[] _current = [];

    public DestinationRegistry(ProxyOptions options, ProxyMetrics metrics)
    {
        _options = options;
        Update(options.Destinations);
        metrics.Meter.CreateObservableGauge("llrp.destination.healthy", () => Measure(d => d.IsAvailable(Environment.TickCount64) ? 1 : 0), "{destination}", "1 while the destination takes requests, 0 while ejected or probed down.");
        metrics.Meter.CreateObservableGauge("llrp.destination.active_requests", () => Measure(d => d.ActiveRequests), "{request}", "Requests in flight to the destination.");
        metrics.Meter.CreateObservableGauge("llrp.destination.queued", () => Measure(d => d.Queued), "{request}", "Requests waiting for a slot of the destination's limit.");
    }

    /// <summary>The destinations now; the array is never changed once published.</summary>
    public Destination[] Current => _current;

    /// <summary>
    /// Replaces the set: destinations whose URI stays keep their object (with a new weight); the others are made or
    /// dropped. Returns false, changing nothing, when the same destinations come with the same weights in the same order.
    /// </summary>
    public bool Update(IReadOnlyList<DestinationOptions> destinations)
    {
        lock (_updates)
        {
            var current = _current;
            var previous = current.ToDictionary(d => d.Name);
            var next = new Destination[destinations.Count];
            var changed = next.Length != current.Length;
            for (var i = 0; i < next.Length; i++)
            {
                var configured = destinations[i];
                var destination = previous.GetValueOrDefault(configured.Endpoint.ToString()) ?? Create(configured);
                changed |= !ReferenceEquals(destination, current.ElementAtOrDefault(i)) || destination.Weight != configured.Weight;
                destination.Weight = configured.Weight;
                destination.Index = i;
                destination.Health.CanEject = next.Length > 1;
                next[i] = destination;
            }

            if (changed)
            {
                _current = next;
            }

            return changed;
        }
    }

    /// <summary>True when at least one destination takes requests.</summary>
    public bool AnyAvailable(long now) => Array.Exists(_current, d => d.IsAvailable(now));

    /// <summary>
    /// For <c>Retry-After</c> when no destination is available: the seconds until the first passive ejection ends, or the
    /// probe interval when the active probes took them out; at least 1.
    /// </summary>
    public int RetryAfterSeconds(long now)
    {
        var soonest = long.MaxValue;
        foreach (var destination in _current)
        {
            var ms = destination.Health.IsProbedDown
                ? (long)_options.ActiveHealthInterval.TotalMilliseconds
                : destination.Health.EjectedUntil - now;
            soonest = Math.Min(soonest, ms);
        }

        return (int)Math.Clamp((soonest + 999) / 1000, 1, 3600);
    }

    private Destination Create(DestinationOptions configured) => new(
        configured.Endpoint,
        configured.Weight,
        new DestinationHealth(
            _options.PassiveHealthFailures,
            (long)_options.PassiveHealthReactivation.TotalMilliseconds,
            _options.ActiveHealthyThreshold,
            _options.ActiveUnhealthyThreshold),
        _options.MaxConnectionsPerDestination,
        _options.MaxQueuedPerDestination,
        _options.QueueTimeout);

    private IEnumerable<Measurement<int>> Measure(Func<Destination, int> value)
        => _current.Select(d => new Measurement<int>(value(d), d.Tag));
}
