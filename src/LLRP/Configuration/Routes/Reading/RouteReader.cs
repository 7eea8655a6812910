using Microsoft.Extensions.Configuration;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>One route of <c>ReverseProxy:Routes</c> (YARP's <c>RouteConfig</c>); its id is its key.</summary>
internal static class RouteReader
{
    private static readonly string[] Keys = ["ClusterId", "Order", "Match", "Metadata", "Transforms"];

    /// <summary>YARP's route policies: LLRP runs no ASP.NET Core middleware per route.</summary>
    private static readonly Dictionary<string, string> Unsupported = new(StringComparer.OrdinalIgnoreCase)
    {
        ["AuthorizationPolicy"] = "no authorization in the proxy",
        ["CorsPolicy"] = "no CORS in the proxy",
        ["RateLimiterPolicy"] = "no rate limiter; limits.* bound client connections and requests per destination",
        ["OutputCachePolicy"] = "no output cache",
        ["TimeoutPolicy"] = "no request timeout policy; use the cluster's HttpRequest:ActivityTimeout or timeouts.responseHeadersMs",
        ["Timeout"] = "no request timeout per route; use the cluster's HttpRequest:ActivityTimeout or timeouts.responseHeadersMs",
        ["MaxRequestBodySize"] = "no body limit per route; use limits.maxRequestBodySize",
    };

    public static RouteOptions Read(IConfigurationSection route, IReadOnlyCollection<string> clusterIds)
    {
        SectionValue.Children(route, "a route: a section with ClusterId and Match");
        SectionKeys.Check(route, Keys, Unsupported);
        var clusterSection = route.GetSection("ClusterId");
        var clusterId = SectionValue.Required(clusterSection, "the id of a cluster of ReverseProxy:Clusters");
        var cluster = clusterIds.FirstOrDefault(id => id.Equals(clusterId, StringComparison.OrdinalIgnoreCase))
            ?? throw SectionValue.Error(clusterSection, $"the id of a cluster of ReverseProxy:Clusters: {string.Join(", ", clusterIds)}");
        var order = SectionValue.Int(route.GetSection("Order"), int.MinValue) ?? 0;
        MetadataSection.Check(route.GetSection("Metadata"));
        var (match, parameters) = RouteMatchReader.Read(route.GetSection("Match"));
        var transforms = TransformReader.Read(route.GetSection("Transforms"), parameters);
        return new RouteOptions(route.Key, cluster, order, match, transforms);
    }
}
