namespace LLRP.Configuration.Routes;

/// <summary>
/// The routes and the clusters they point at: the <c>ReverseProxy</c> section of appsettings.json in YARP's schema, or
/// the implicit catch-all route and cluster of <c>downstream</c> (or the <c>destinations</c> section). Read at start-up
/// and again when the configuration reloads.
/// </summary>
/// <param name="Routes">At least one; each names a cluster of <see cref="Clusters"/>.</param>
/// <param name="Clusters">At least one; each used by a route or not.</param>
public sealed record RoutingOptions(IReadOnlyList<RouteOptions> Routes, IReadOnlyList<ClusterOptions> Clusters)
{
    /// <summary>The TCP routes (<c>ReverseProxy:TcpRoutes</c>), each naming a cluster of <see cref="Clusters"/> with <c>tcp://</c> destinations.</summary>
    public IReadOnlyList<TcpRouteOptions> TcpRoutes { get; init; } = [];

    /// <summary>No route: what <see cref="ProxyOptions.Routing"/> holds while the top-level keys it is built from are read.</summary>
    internal static RoutingOptions Unread { get; } = new([], []);
}
