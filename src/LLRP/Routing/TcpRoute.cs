using LLRP.Configuration.Routes;

namespace LLRP.Routing;

/// <summary>One TCP route at run time: its settings and its cluster, looked up again by each connection it accepts.</summary>
internal sealed class TcpRoute(TcpRouteOptions options, Cluster cluster)
{
    public TcpRouteOptions Options { get; } = options;

    public string Id => Options.Id;

    public Cluster Cluster { get; } = cluster;

    /// <summary>The <c>route</c> tag of its measurements, built once.</summary>
    public KeyValuePair<string, object?> Tag { get; } = new("route", options.Id);
}
