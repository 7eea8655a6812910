using LLRP.Configuration.Routes;
using LLRP.Http1;

namespace LLRP.Routing;

/// <summary>
/// The routes and clusters of one configuration, never changed once made: the <see cref="Router"/> publishes a new one
/// on each reload, and a client session takes the one it finds for each batch.
/// </summary>
internal sealed class RoutingTable
{
    private readonly RouteTable<Route> _routes;

    private RoutingTable(RouteTable<Route> routes, IReadOnlyList<Cluster> clusters, IReadOnlyList<Route> routeList)
    {
        _routes = routes;
        Clusters = clusters;
        Routes = routeList;
    }

    public IReadOnlyList<Cluster> Clusters { get; }

    public IReadOnlyList<Route> Routes { get; }

    /// <summary>The TCP routes, each with its cluster.</summary>
    public IReadOnlyList<TcpRoute> TcpRoutes { get; private init; } = [];

    /// <summary>Some route's path template is not a catch-all of every path: which route a request takes depends on its path.</summary>
    public bool RoutesByPath { get; private init; }

    /// <summary>Makes the table of <paramref name="options"/>; a cluster of <paramref name="previous"/> whose settings stay is kept, with the new destinations.</summary>
    public static RoutingTable Build(RoutingOptions options, RoutingTable? previous)
    {
        var kept = previous?.Clusters.ToDictionary(cluster => cluster.Id) ?? [];
        var clusters = new Dictionary<string, Cluster>();
        foreach (var configured in options.Clusters)
        {
            if (kept.TryGetValue(configured.Id, out var cluster) && cluster.CanTake(configured))
            {
                cluster.Take(configured);
            }
            else
            {
                cluster = new Cluster(configured);
            }

            clusters.Add(configured.Id, cluster);
        }

        var routes = options.Routes
            .Select(route =>
            {
                var conditions = new RouteConditions(route);
                return (Options: route, Conditions: conditions, Value: new Route(
                    route.Id,
                    clusters[route.ClusterId],
                    TransformCompiler.Request(route.Transforms, conditions.Template.ParameterNames),
                    TransformCompiler.Response(route.Transforms)));
            })
            .ToList();
        return new RoutingTable(new RouteTable<Route>(routes), clusters.Values.ToList(), routes.Select(route => route.Value).ToList())
        {
            RoutesByPath = routes.Any(route => !route.Conditions.Template.MatchesAnyPath),
            TcpRoutes = [.. options.TcpRoutes.Select(route => new TcpRoute(route, clusters[route.ClusterId]))],
        };
    }

    /// <summary>The TCP route named <paramref name="id"/>, or null when the table has none of that name.</summary>
    /// <remarks>By index: a <c>foreach</c> over the interface boxed the list's enumerator for every TCP connection.</remarks>
    public TcpRoute? FindTcpRoute(string id)
    {
        var routes = TcpRoutes;
        for (var i = 0; i < routes.Count; i++)
        {
            if (routes[i].Id == id)
            {
                return routes[i];
            }
        }

        return null;
    }

    /// <summary>The route of <paramref name="head"/>, or null when none takes it; its path captures go to <paramref name="rewriter"/>.</summary>
    /// <param name="head">The request.</param>
    /// <param name="defaultPort">The port a <c>Host</c> without one means: the client connection's scheme's (80, 443).</param>
    /// <param name="rewriter">The forwarding rules of the request's connection.</param>
    public Route? Match(RequestHead head, int defaultPort, RequestRewriter rewriter)
    {
        var request = new Http1RoutableRequest(head, defaultPort);
        if (!_routes.TryMatch(ref request, out var match))
        {
            return null;
        }

        var count = match.Route.Template.ParameterNames.Length;
        Span<Range> captures = stackalloc Range[count];
        for (var i = 0; i < count; i++)
        {
            captures[i] = match.Capture(i);
        }

        rewriter.Capture(captures);
        return match.Value;
    }
}
