using LLRP.Configuration.Routes;
using LLRP.Routing.Destinations;

namespace LLRP.Tests.Routing.Destinations;

/// <summary>Registries of destinations named a, b, c… on made-up hosts, with the options given.</summary>
internal static class TestDestinations
{
    public static DestinationRegistry Registry(ClusterOptions options) => new(options);

    public static ClusterOptions Options(params int[] weights) => EjectedAfter(5, weights);

    /// <summary>Destinations of the given weights, ejected after <paramref name="passiveFailures"/> failures in a row.</summary>
    public static ClusterOptions EjectedAfter(int passiveFailures, params int[] weights)
        => TestClusters.Cluster(weights.Length, passiveFailures: passiveFailures, weights: weights);

    /// <summary>The destination's host name: a, b, c….</summary>
    public static string Short(Destination? destination) => destination?.Endpoint.Host[..1] ?? "-";
}
