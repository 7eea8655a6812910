using LLRP.Configuration.Routes;
using LLRP.Routing;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Routing;

/// <summary>Routes written in one line each, and tables whose value for a route is its id.</summary>
internal static class RouteTables
{
    public static RouteOptions Route(
        string id,
        string? path = "/{**catch-all}",
        int order = 0,
        string[]? hosts = null,
        string[]? methods = null,
        HeaderMatchOptions[]? headers = null,
        QueryMatchOptions[]? query = null)
        => new(id, "cluster", order, new RouteMatchOptions(path, hosts ?? [], methods ?? [], headers ?? [], query ?? []), RouteTransformOptions.None);

    public static RouteTable<string> Table(params RouteOptions[] routes) => new(routes.Select(r => (r, r.Id)));

    /// <summary>The id of the route <paramref name="request"/> takes, or null.</summary>
    public static string? Match(this RouteTable<string> table, TestRequest request)
        => table.TryMatch(ref request, out var match) ? match.Value : null;

    /// <summary>The id of the route a GET of <paramref name="target"/> to example.com takes, or null.</summary>
    public static string? Match(this RouteTable<string> table, string target, params (string Name, string Value)[] fields)
        => table.Match(TestRequest.Get(target, fields));

    /// <summary>What the parameter <paramref name="name"/> captured from the path of a GET of <paramref name="target"/>.</summary>
    public static string Capture(this RouteTable<string> table, string target, string name)
    {
        var request = TestRequest.Get(target);
        Assert.True(table.TryMatch(ref request, out var match), $"{target} matches");
        Assert.True(match.TryGetCapture(name, out var range), $"{name} is captured");
        return Text.Of(request.Path[range]);
    }
}
