using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Routing.Affinity;
using LLRP.Routing.Destinations;

namespace LLRP.Routing;

/// <summary>
/// One cluster at run time: its destinations (<see cref="DestinationRegistry"/>), how one is chosen
/// (<see cref="LoadBalancer"/>), and the settings every request to it follows. A reload that changes only its
/// destinations keeps the object, so destinations that stay keep their health and slots; any other change makes a new one.
/// </summary>
internal sealed class Cluster
{
    public Cluster(ClusterOptions options)
    {
        Options = options;
        Affinity = options.Affinity is { } affinity ? new SessionAffinity(options.Id, affinity) : null;
        Destinations = new DestinationRegistry(options, Affinity);
        Balancer = new LoadBalancer(Destinations, options.Balancing, options.AvailableDestinations);
        Tag = new KeyValuePair<string, object?>(ProxyMetrics.ClusterTag, options.Id);
        OverHttpClient = options.AsksHttp2;
    }

    public ClusterOptions Options { get; private set; }

    public string Id => Options.Id;

    /// <summary>The <c>cluster</c> tag of its measurements, built once.</summary>
    public KeyValuePair<string, object?> Tag { get; }

    public DestinationRegistry Destinations { get; }

    /// <summary>The cluster's session affinity; null without.</summary>
    public SessionAffinity? Affinity { get; }

    public LoadBalancer Balancer { get; }

    /// <summary>
    /// In raw mode, HTTP/1.1 clients' requests to it go over HttpClient rather than raw mode's own HTTP/1.1 client: it
    /// asks HTTP/2 of its destinations (<see cref="ClusterOptions.AsksHttp2"/>; such a cluster sends no PROXY protocol
    /// header, which the reader refuses). Fixed for the cluster's life (a reload that changes it makes a new cluster).
    /// </summary>
    public bool OverHttpClient { get; }

    /// <summary>Other destinations an unanswered request may go to.</summary>
    public int MaxRetries => Options.MaxRetries;

    /// <summary>True when <paramref name="next"/> differs from this cluster's settings in its destinations at most.</summary>
    public bool CanTake(ClusterOptions next) => SettingsOf(next) == SettingsOf(Options);

    /// <summary>Takes the destinations of <paramref name="next"/> (<see cref="CanTake"/>); returns whether they changed.</summary>
    public bool Take(ClusterOptions next)
    {
        Options = next;
        return Destinations.Update(next.Destinations);
    }

    private static ClusterOptions SettingsOf(ClusterOptions options) => options with { Destinations = [] };
}
