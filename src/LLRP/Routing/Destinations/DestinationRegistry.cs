using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Routing.Affinity;

namespace LLRP.Routing.Destinations;

/// <summary>
/// The current destinations of one cluster, replaced as a whole when the configuration reloads (<see cref="Update"/>):
/// readers take the array they find and never see a half-made set. A destination that stays keeps its object and state.
/// </summary>
internal sealed class DestinationRegistry
{
    private readonly ClusterOptions _options;
    private readonly SessionAffinity? _affinity;
    private readonly Lock _updates = new();
    private volatile Destination[] _current = [];

    /// <param name="options">The cluster's settings, which its destinations' health and limits follow.</param>
    /// <param name="affinity">The cluster's session affinity, which gives each destination its key; null without.</param>
    public DestinationRegistry(ClusterOptions options, SessionAffinity? affinity = null)
    {
        _options = options;
        _affinity = affinity;
        Update(options.Destinations);
    }

    /// <summary>The destinations now; the array is never changed once published.</summary>
    public Destination[] Current => _current;

    /// <summary>
    /// Replaces the set: destinations whose name and URI stay keep their object (with a new weight); the others are made
    /// or dropped. Returns false, changing nothing, when the same destinations come with the same weights in the same order.
    /// </summary>
    public bool Update(IReadOnlyList<DestinationOptions> destinations)
    {
        lock (_updates)
        {
            var current = _current;
            var previous = current.ToDictionary(d => d.Key);
            var next = new Destination[destinations.Count];
            var changed = next.Length != current.Length;
            for (var i = 0; i < next.Length; i++)
            {
                var configured = destinations[i];
                var destination = previous.GetValueOrDefault(Destination.KeyOf(configured)) ?? Create(configured);
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
                ? (long)(_options.ActiveHealth?.Interval ?? TimeSpan.FromSeconds(1)).TotalMilliseconds
                : destination.Health.EjectedUntil - now;
            soonest = Math.Min(soonest, ms);
        }

        return (int)Math.Clamp((soonest + 999) / 1000, 1, 3600);
    }

    private Destination Create(DestinationOptions configured)
    {
        var key = _affinity?.KeyOf(Destination.KeyOf(configured)) ?? [];
        var endpoint = configured.Endpoint.IsTls && _options.DangerousAcceptAnyServerCertificate
            ? configured.Endpoint.AcceptingAnyCertificate()
            : configured.Endpoint;
        if (_options.ProxyProtocol != ProxyProtocolVersion.None)
        {
            endpoint = endpoint.SendingProxyProtocol(_options.ProxyProtocol);
        }

        var health = new DestinationHealth(
            _options.PassiveHealth.ConsecutiveFailures,
            (long)_options.PassiveHealth.Reactivation.TotalMilliseconds,
            _options.ActiveHealth?.HealthyThreshold ?? 1,
            _options.ActiveHealth?.UnhealthyThreshold ?? 1);
        return new Destination(configured with { Endpoint = endpoint }, _options.Id, health, _options.MaxRequestsPerDestination, _options.MaxQueuedPerDestination, _options.QueueTimeout)
        {
            AffinityKey = key,
            AffinityLine = _affinity?.FieldLine(key) ?? [],
        };
    }
}
