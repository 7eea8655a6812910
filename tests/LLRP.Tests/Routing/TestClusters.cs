using System.Diagnostics.Metrics;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.Tests.Routing;

/// <summary>Clusters of destinations named a, b, c… on made-up hosts, and the routing options of one catch-all route to one.</summary>
internal static class TestClusters
{
    public static ProxyMetrics Metrics() => new(new ServiceCollection().AddMetrics().BuildServiceProvider().GetRequiredService<IMeterFactory>());

    /// <summary>A cluster of <paramref name="count"/> destinations under <paramref name="policy"/>, each ejected after <paramref name="passiveFailures"/> failures in a row.</summary>
    public static ClusterOptions Cluster(
        int count,
        BalancingPolicy policy = BalancingPolicy.RoundRobin,
        int maxRetries = 1,
        int passiveFailures = 5,
        int[]? weights = null,
        AvailableDestinationsPolicy available = AvailableDestinationsPolicy.HealthyAndUnknown) => new(
        "c",
        Enumerable.Range(0, count).Select(i => new DestinationOptions(DestinationEndpoint.TryParse($"http://{(char)('a' + i)}.test/")!, weights?[i] ?? 1)).ToArray(),
        policy,
        new PassiveHealthOptions(passiveFailures, TimeSpan.FromSeconds(10)),
        ActiveHealth: null,
        available,
        Affinity: null,
        maxRetries,
        MaxRequestsPerDestination: 0,
        MaxQueuedPerDestination: 0,
        QueueTimeout: TimeSpan.FromSeconds(5),
        ResponseHeadersTimeout: TimeSpan.FromSeconds(100),
        DangerousAcceptAnyServerCertificate: false);

    /// <summary>One catch-all route to <paramref name="cluster"/>.</summary>
    public static RoutingOptions CatchAll(ClusterOptions cluster)
        => new([new RouteOptions("r", cluster.Id, 0, RouteMatchOptions.Any, RouteTransformOptions.None)], [cluster]);
}
