using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Destinations;

/// <summary>
/// Key <c>health.active.path</c>: every destination is probed with <c>GET {base}{path}</c>; one whose probes fail
/// <c>health.active.unhealthyThreshold</c> times in a row gets no request until a probe succeeds again.
/// </summary>
public sealed class ActiveHealthTests
{
    /// <summary>
    /// Of three destinations (one healthy, one whose probes get 503, one slow), the one answering 503 to its probes is
    /// taken out: no request reaches it, every request is served by the others; once its probes get 200 it takes its turn again.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task Probed503_NoRequestReachesItUntilProbesSucceed(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        await using var failing = DestinationOrigin.Start("F");
        await using var slow = DestinationOrigin.Start("S", TimeSpan.FromMilliseconds(100));
        failing.HealthStatus = 503;
        await using var proxy = await TestHosts.StartProxyAsync(
            $"{healthy.Url};{failing.Url};{slow.Url}", mode, [.. ActiveHealth.Settings, "balancing=roundRobin"]);

        await ActiveHealth.WaitUntilProbedDownAsync(failing);
        await using var client = await proxy.ConnectAsync();
        var sent = 0;
        for (; sent < 12; sent++)
        {
            var response = await client.GetAsync($"/x?{sent}");
            Assert.Equal(200, response.StatusCode);
        }

        Assert.Equal(0, failing.Served);
        Assert.True(healthy.Served > 0 && slow.Served > 0, $"Expected the two others to share: {healthy.Served} and {slow.Served}");
        Assert.True(healthy.ProbesAnswered(200) > 0 && slow.ProbesAnswered(200) > 0, "The other destinations were not probed");

        failing.HealthStatus = 200;
        await Deadline.UntilAsync(async () =>
        {
            Assert.Equal(200, (await client.GetAsync($"/x?{sent++}")).StatusCode);
            return failing.Served > 0;
        }, "The destination whose probes succeed again getting a request");
    }

    /// <summary>
    /// A proxy whose cluster has no active health check probes nothing; the reload that turns it on wakes the prober, and
    /// the destination gets its probes from then on.
    /// </summary>
    [Fact]
    public async Task Reloaded_ActiveHealthTurnedOn_DestinationProbed()
    {
        await using var origin = DestinationOrigin.Start("A");
        using var root = ContentRoot.WithSettings(Cluster(origin.Url, ""));
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, LlrpModes.RawPooled);
        Assert.Equal(200, (await proxy.GetOnNewConnectionAsync("/before")).StatusCode);

        root.WriteSettings(Cluster(origin.Url, $", \"HealthCheck\": {{ \"Active\": {{ \"Enabled\": true, \"Interval\": \"00:00:00.1\", \"Path\": \"{DestinationOrigin.HealthPath}\" }} }}"));

        await Deadline.UntilAsync(() => origin.ProbesAnswered(200) >= 2, "The destination probed after the reload turned active health on");
    }

    private static string Cluster(string url, string health) => $$"""
        {
          "ReverseProxy": {
            "Routes": { "r": { "ClusterId": "c", "Match": { "Path": "/{**rest}" } } },
            "Clusters": { "c": { "Destinations": { "d": { "Address": "{{url}}/" } }{{health}} } }
          }
        }
        """;
}
