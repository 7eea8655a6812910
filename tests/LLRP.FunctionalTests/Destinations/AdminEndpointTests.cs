using System.Globalization;
using System.Net;
using System.Text.RegularExpressions;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Destinations;

/// <summary>
/// Key <c>admin.urls</c>: a listener of its own serves <c>GET /metrics</c> (the <c>LLRP</c> meter in Prometheus text)
/// and <c>GET /healthz</c>; the proxy's own endpoint serves neither, it forwards them as any request.
/// </summary>
public sealed partial class AdminEndpointTests
{
    /// <summary>
    /// Two client connections of 3 and 2 requests, one per destination (round robin per connection): <c>/metrics</c>
    /// shows <c>llrp.requests</c> (as the exporter names it) with each destination as a label and its count.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Metrics_CountRequestsByDestinationInPrometheusText(string mode)
    {
        using var admin = new AdminEndpoint();
        await using var first = DestinationOrigin.Start("A");
        await using var second = DestinationOrigin.Start("B");
        await using var proxy = await TestHosts.StartProxyAsync($"{first.Url};{second.Url}", mode, admin.Setting);
        for (var connection = 0; connection < 2; connection++)
        {
            await using var client = await proxy.ConnectAsync();
            for (var i = 0; i < 3 - connection; i++)
            {
                Assert.Equal(200, (await client.GetAsync($"/x?{connection}-{i}")).StatusCode);
            }
        }

        Assert.Equal(5, first.Served + second.Served);
        var text = "";
        try
        {
            // A request is counted once its exchange has ended, which the client may see a moment before.
            await Deadline.UntilAsync(async () =>
            {
                text = (await admin.GetAsync("/metrics")).Body;
                return RequestCount(text, first.DestinationName) == first.Served && RequestCount(text, second.DestinationName) == second.Served;
            }, "/metrics counting every request by destination");
        }
        catch (TimeoutException e)
        {
            throw new TimeoutException($"{e.Message} A served {first.Served}, B {second.Served}; /metrics:\n{text}", e);
        }
    }

    /// <summary>The proxy's endpoint forwards <c>/metrics</c> and <c>/healthz</c> to the destination like any path.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ProxyEndpoint_ForwardsAdminPaths(string mode)
    {
        using var admin = new AdminEndpoint();
        await using var origin = DestinationOrigin.Start("O");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, admin.Setting);
        await using var client = await proxy.ConnectAsync();

        var metrics = await client.GetAsync("/metrics");
        var health = await client.GetAsync("/healthz");

        Assert.Equal((200, "O"), (metrics.StatusCode, metrics.BodyText));
        Assert.Equal((200, "O"), (health.StatusCode, health.BodyText));
        Assert.Equal(["/metrics", "/healthz"], origin.Requests.Select(request => request.Target));
    }

    /// <summary><c>/healthz</c>: 200 <c>healthy</c> while a destination is available; 503 <c>unhealthy</c> once every destination fails its probes.</summary>
    [Fact]
    public async Task Healthz_HealthyThenUnhealthyWhenEveryDestinationProbedDown()
    {
        using var admin = new AdminEndpoint();
        await using var first = DestinationOrigin.Start("A");
        await using var second = DestinationOrigin.Start("B");
        await using var proxy = await TestHosts.StartProxyAsync($"{first.Url};{second.Url}", LlrpModes.RawPooled, [.. ActiveHealth.Settings, admin.Setting]);

        Assert.Equal((HttpStatusCode.OK, "healthy"), await HealthzAsync(admin));

        first.HealthStatus = 503;
        await ActiveHealth.WaitUntilProbedDownAsync(first);
        Assert.Equal((HttpStatusCode.OK, "healthy"), await HealthzAsync(admin));

        second.HealthStatus = 503;
        await ActiveHealth.WaitUntilProbedDownAsync(second);
        Assert.Equal((HttpStatusCode.ServiceUnavailable, "unhealthy"), await HealthzAsync(admin));

        first.HealthStatus = 200;
        await Deadline.UntilAsync(async () => (await admin.GetAsync("/healthz")).Status == HttpStatusCode.OK, "/healthz healthy again");
    }

    /// <summary><c>/healthz</c>'s status and its one word (the line it is on may end with a line feed).</summary>
    private static async Task<(HttpStatusCode Status, string Word)> HealthzAsync(AdminEndpoint admin)
    {
        var (status, body) = await admin.GetAsync("/healthz");
        return (status, body.TrimEnd('\r', '\n'));
    }

    /// <summary>
    /// The sum of the <c>llrp_requests</c> samples (<c>llrp_requests_total</c> as OpenTelemetry's exporter names a
    /// counter) labelled with <paramref name="destination"/>; -1 when there is none.
    /// </summary>
    private static long RequestCount(string metrics, string destination)
    {
        var samples = metrics.Split('\n')
            .Select(line => RequestsSample().Match(line))
            .Where(sample => sample.Success && sample.Groups["labels"].Value.Contains($"destination=\"{destination}\"", StringComparison.Ordinal))
            .Select(sample => double.Parse(sample.Groups["value"].Value, CultureInfo.InvariantCulture))
            .ToArray();
        return samples.Length == 0 ? -1 : (long)samples.Sum();
    }

    [GeneratedRegex(@"^llrp_requests(_total)?\{(?<labels>[^}]*)\} (?<value>\S+)")]
    private static partial Regex RequestsSample();
}
