using LLRP.Http1;
using LLRP.Configuration.Routes;

namespace LLRP.Routing;

/// <summary>
/// The routes of a configuration, ranked once by <see cref="RoutePrecedence"/> and indexed by exact host and first
/// path segment, so a request is tested only against the few routes that can take it, best first, without allocating.
/// </summary>
/// <typeparam name="TValue">What the owner attaches to each route (its cluster, its compiled transforms).</typeparam>
internal sealed class RouteTable<TValue>
{
    private readonly Route<TValue>[] _routes;
    private readonly ByteKeyTable<SegmentIndex> _byExactHost;
    private readonly SegmentIndex _otherHosts;

    /// <param name="routes">The routes in declaration order, each with its value.</param>
    /// <exception cref="ArgumentException">A route uses something not supported; the message names the route and what.</exception>
    public RouteTable(IEnumerable<(RouteOptions Route, TValue Value)> routes)
        : this(routes.Select(r => (r.Route, new RouteConditions(r.Route), r.Value)))
    {
    }

    /// <param name="routes">The routes in declaration order, each with its compiled match and its value.</param>
    public RouteTable(IEnumerable<(RouteOptions Route, RouteConditions Conditions, TValue Value)> routes)
    {
        _routes = [.. routes
            .Select(r => new Route<TValue>(r.Route, r.Conditions, r.Value))
            .OrderBy(r => r.Conditions, RoutePrecedence.Instance)];
        var byHost = new Dictionary<string, (byte[] Name, List<(int, RouteTemplate)> Routes)>(StringComparer.Ordinal);
        var otherHosts = new List<(int, RouteTemplate)>();
        for (var rank = 0; rank < _routes.Length; rank++)
        {
            var route = _routes[rank];
            if (route.Conditions.ExactHostNames is not { } names)
            {
                otherHosts.Add((rank, route.Template));
                continue;
            }

            foreach (var name in names.DistinctBy(n => AsciiCase.FoldedKey(n)))
            {
                var key = AsciiCase.FoldedKey(name);
                if (!byHost.TryGetValue(key, out var entry))
                {
                    byHost[key] = entry = (name, []);
                }

                entry.Routes.Add((rank, route.Template));
            }
        }

        _byExactHost = new ByteKeyTable<SegmentIndex>([.. byHost.Values.Select(e => KeyValuePair.Create(e.Name, new SegmentIndex(e.Routes)))]);
        _otherHosts = new SegmentIndex(otherHosts);
    }

    /// <summary>The routes, best first.</summary>
    public IReadOnlyList<Route<TValue>> Routes => _routes;

    /// <summary>The best route that matches <paramref name="request"/>; false when none does.</summary>
    public bool TryMatch<TRequest>(scoped ref TRequest request, out RouteMatch<TValue> match)
        where TRequest : IRoutableRequest, allows ref struct
    {
        var path = new RequestPath(request.Path, stackalloc Range[RequestPath.Capacity]);
        var authority = new RequestAuthority(request.Host, request.DefaultPort);
        Span<byte> keyBuffer = stackalloc byte[SegmentIndex.MaxKeyLength];
        var keyLength = path.Count > 0 ? PercentEncoding.DecodeSegment(path.Segment(0), keyBuffer) : -1;
        var hostIndex = authority.Name.IsEmpty ? null : _byExactHost.Find(authority.Name);
        var candidates = keyLength < 0
            ? new CandidateMerge(default, hostIndex is null ? default : hostIndex.Others, default, _otherHosts.Others)
            : new CandidateMerge(
                hostIndex is null ? default : hostIndex.StartingWith(keyBuffer[..keyLength]),
                hostIndex is null ? default : hostIndex.Others,
                _otherHosts.StartingWith(keyBuffer[..keyLength]),
                _otherHosts.Others);
        var captures = default(PathCaptures);
        while (candidates.TryNext(out var rank))
        {
            var route = _routes[rank];
            if (route.Conditions.Matches(request, path, authority, ref captures))
            {
                match = new RouteMatch<TValue>(route, captures);
                return true;
            }
        }

        match = default;
        return false;
    }
}
