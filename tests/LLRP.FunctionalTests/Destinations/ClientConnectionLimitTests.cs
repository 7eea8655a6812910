using LLRP.FaultRun;
using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Destinations;

/// <summary>
/// Key <c>limits.maxClientConnections</c>: a client connection over the limit gets <c>503 Service Unavailable</c>
/// (RFC 9110 §15.6.4) with <c>Connection: close</c> (RFC 9112 §9.6) and is closed; once a connection closes, a new one is served.
/// </summary>
public sealed class ClientConnectionLimitTests
{
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task OverLimit_ThirdConnection503ThenServedOnceOneCloses(string mode)
    {
        await using var origin = DestinationOrigin.Start("O");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "limits.maxClientConnections=2");
        using var metrics = new ProxyMeterRecorder(proxy);
        var first = await proxy.ConnectAsync();
        await using var second = await proxy.ConnectAsync();
        await using (first)
        {
            Assert.Equal(200, (await first.GetAsync("/first")).StatusCode);
            Assert.Equal(200, (await second.GetAsync("/second")).StatusCode);

            // The proxy answers a connection over the limit as soon as it accepts it: the client sends nothing, so that
            // no request of its can meet the closed socket and turn the close into a reset that loses the 503.
            await using var third = await proxy.ConnectAsync();
            var rejected = await third.ReadResponseAsync();
            Assert.Equal(503, rejected.StatusCode);
            Assert.Contains("close", rejected.Head.Tokens("Connection"));
            await third.AssertClosedByPeerAsync();
            Assert.Equal(1, metrics.Sum("llrp.client.rejected_connections"));
        }

        await Deadline.UntilAsync(async () =>
        {
            try
            {
                return (await proxy.GetOnNewConnectionAsync("/after")).StatusCode == 200;
            }
            catch (IOException)
            {
                // Rejected while the proxy had not yet seen the first connection close: the 503 was lost to a reset.
                return false;
            }
        }, "A new connection being served once one closed");
        Assert.Equal(200, (await second.GetAsync("/second-again")).StatusCode);
    }

    // Many at once (scripts/connection-limit.sh runs 10,000): every connection within the limit is served and stays
    // open, every one over it gets 503 and the close, each is counted, and the gauge follows.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ManyOverLimit_EachRefusedAndCountedWhileTheHeldOnesStayServed(string mode)
    {
        const int Limit = 200;
        const int Over = 60;
        var tally = new FaultTally();
        await using var destination = new FaultingDestination(0, 0, 1, tally);
        await using var proxy = await TestHosts.StartProxyAsync(destination.Url, mode, $"limits.maxClientConnections={Limit}");
        using var metrics = new ProxyMeterRecorder(proxy);
        var run = new ConnectionLimitRun(proxy.Port);
        using var timeout = new CancellationTokenSource(Deadline.Io * 6);

        try
        {
            await run.RunAsync(Limit, Over, timeout.Token);

            Assert.True(run.Served == Limit && run.Refused == Over, $"{run.Served} served, {run.Refused} refused: {string.Join("; ", run.Problems)}");
            Assert.Equal(Limit, metrics.Sum("llrp.client.active_connections"));
            Assert.Equal(Over, metrics.Sum("llrp.client.rejected_connections"));
        }
        finally
        {
            run.CloseAll();
        }

        await metrics.WaitForSumAsync("llrp.client.active_connections", 0);
        Assert.Equal(0, tally.Mismatches);
    }
}
