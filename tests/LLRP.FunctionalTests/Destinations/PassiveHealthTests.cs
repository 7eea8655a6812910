using System.Diagnostics;
using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Destinations;

/// <summary>
/// Keys <c>health.passive.consecutiveFailures</c> and <c>health.passive.reactivationMs</c>: a destination that fails
/// that many times in a row is left out for the reactivation period, then tried again.
/// </summary>
public sealed class PassiveHealthTests
{
    private const int ConsecutiveFailures = 2;

    private static readonly TimeSpan Reactivation = TimeSpan.FromSeconds(2);

    /// <summary>The imprecision allowed to the proxy's clock (a tick count) when checking it waited the whole period.</summary>
    private static readonly TimeSpan ClockTolerance = TimeSpan.FromMilliseconds(50);

    /// <summary>
    /// Of three destinations (one healthy, one that dies mid-run, one slow), the one that dies is ejected after
    /// <see cref="ConsecutiveFailures"/> failures and tried no more, while every GET still succeeds elsewhere; back on
    /// its port it gets no request before the reactivation period has passed, though requests keep coming; after it, it
    /// takes its turn again.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task DeadDestination_EjectedForReactivationPeriodThenServesAgain(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        await using var dying = DestinationOrigin.Start("D");
        await using var slow = DestinationOrigin.Start("S", TimeSpan.FromMilliseconds(100));
        await using var proxy = await TestHosts.StartProxyAsync(
            $"{healthy.Url};{dying.Url};{slow.Url}",
            mode,
            "balancing=roundRobin",
            $"health.passive.consecutiveFailures={ConsecutiveFailures}",
            $"health.passive.reactivationMs={Reactivation.TotalMilliseconds}");
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var client = await proxy.ConnectAsync();
        var sent = 0;
        for (; sent < 6; sent++)
        {
            Assert.Equal(200, (await client.GetAsync($"/x?{sent}")).StatusCode);
        }

        Assert.Equal(2, dying.Served);

        var died = Stopwatch.GetTimestamp();
        await dying.StopAsync();
        await Deadline.UntilAsync(async () =>
        {
            var response = await client.GetAsync($"/x?{sent++}");
            Assert.True(response.StatusCode == 200, $"Expected the GET retried elsewhere, got:\n{response}");
            return metrics.Sum("llrp.destination.ejections", "destination", dying.DestinationName) > 0;
        }, "The dead destination's ejection");

        var restarted = Stopwatch.GetTimestamp();
        dying.Restart();
        var servedElsewhere = 0;
        await Deadline.UntilAsync(async () =>
        {
            var response = await client.GetAsync($"/x?{sent++}");
            Assert.Equal(200, response.StatusCode);
            servedElsewhere += response.BodyText == "D" ? 0 : 1;
            return dying.FirstArrivalSince(restarted) is not null;
        }, "The destination back on its port serving again");

        var back = Stopwatch.GetElapsedTime(died, dying.FirstArrivalSince(restarted)!.Value);
        Assert.True(back >= Reactivation - ClockTolerance, $"The destination got a request {back.TotalMilliseconds} ms after it died, within the reactivation period");
        Assert.True(servedElsewhere >= 3, $"Only {servedElsewhere} requests were sent while it was out: too few to show it was left out");
        Assert.True(
            metrics.Sum("llrp.destination.failures", "destination", dying.DestinationName) == ConsecutiveFailures,
            $"Expected exactly {ConsecutiveFailures} failures, then none while ejected: {metrics.Describe("llrp.destination.failures")}");
        Assert.Equal(1, metrics.Sum("llrp.destination.ejections", "destination", dying.DestinationName));

        var servedBefore = dying.Served;
        for (var i = 0; i < 6; i++)
        {
            Assert.Equal(200, (await client.GetAsync($"/x?{sent++}")).StatusCode);
        }

        Assert.Equal(servedBefore + 2, dying.Served);
    }

    /// <summary>
    /// The default policy, in every configuration: once the destination that died is ejected, each new client
    /// connection goes to the healthy one, every GET succeeds, and the dead one is not tried again.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task PerConnectionPolicy_DeadDestinationEjected_NewConnectionsServedElsewhere(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        await using var dying = DestinationOrigin.Start("D");
        await using var proxy = await TestHosts.StartProxyAsync(
            $"{healthy.Url};{dying.Url}", mode, "health.passive.consecutiveFailures=1", "health.passive.reactivationMs=30000");
        using var metrics = new ProxyMeterRecorder(proxy);
        for (var i = 0; i < 2; i++)
        {
            Assert.Equal(200, (await proxy.GetOnNewConnectionAsync($"/before?{i}")).StatusCode);
        }

        Assert.Equal(1, dying.Served);
        await dying.StopAsync();
        for (var i = 0; i < 6; i++)
        {
            var response = await proxy.GetOnNewConnectionAsync($"/after?{i}");
            Assert.True(response.StatusCode == 200 && response.BodyText == "H", $"Connection {i} after the death: expected the healthy destination's answer, got:\n{response}");
        }

        Assert.Equal(1, metrics.Sum("llrp.destination.ejections", "destination", dying.DestinationName));
        Assert.True(
            metrics.Sum("llrp.destination.failures", "destination", dying.DestinationName) == 1,
            $"Expected one failure, then none while ejected: {metrics.Describe("llrp.destination.failures")}");
    }

    /// <summary>With <c>health.passive.consecutiveFailures=0</c> nothing is ejected: a dead destination is tried again and again (each GET then retried elsewhere).</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task PassiveHealthOff_DeadDestinationNeverEjected(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        var dead = $"http://127.0.0.1:{LoopbackPort.Closed()}";
        await using var proxy = await TestHosts.StartProxyAsync(
            $"{healthy.Url};{dead}", mode, "balancing=roundRobin", "health.passive.consecutiveFailures=0");
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var client = await proxy.ConnectAsync();

        for (var i = 0; i < 10; i++)
        {
            Assert.Equal(200, (await client.GetAsync($"/x?{i}")).StatusCode);
        }

        Assert.Equal(10, healthy.Served);
        Assert.Equal(0, metrics.Sum("llrp.destination.ejections"));
        Assert.True(metrics.Sum("llrp.retries", "destination", dead + "/") >= 4, metrics.Describe("llrp.retries"));
    }
}
