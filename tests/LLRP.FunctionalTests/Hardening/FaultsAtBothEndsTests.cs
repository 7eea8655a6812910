using LLRP.FaultRun;
using LLRP.FunctionalTests.Http2;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>
/// A bounded slice of the fault run (scripts/faults.sh runs a million requests): clients that abort mid-upload and
/// mid-download, half-close early and send garbage after a request, and a destination that resets before the response,
/// resets mid-body and cuts mid-body, each for 5% of the requests. Every request carries a unique id and every body is
/// derived from it: no 200 may reach another request or carry other bytes than its own (RFC 9112 §9.3.2; a response the
/// proxy cannot finish is an aborted connection, RFC 9112 §8), and once the clients are gone and the destination has
/// closed its side, the proxy's connection gauges are back to 0. Over HTTP/2 (h2c, several streams per connection, on
/// both HTTP/2 servers) the client resets streams mid-upload and mid-download (RST_STREAM, RFC 9113 §6.4) and resets the
/// TCP connection under all of its streams; the destination's faults then reach the client as a 502 or a reset stream
/// (RFC 9113 §8.1: a response the proxy cannot finish is never delivered as complete).
/// </summary>
public sealed class FaultsAtBothEndsTests
{
    private const int Requests = 1500;
    private const int Clients = 16;
    private const double FaultRate = 0.05;

    /// <summary>Streams in flight on each HTTP/2 client's connection.</summary>
    private const int StreamsPerClient = 8;

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task FaultsAtBothEnds_NoResponseReachesTheWrongRequestAndNoConnectionLeaks(string mode)
    {
        var tally = new FaultTally();
        await using var destination = new FaultingDestination(0, FaultRate, Seed(mode), tally);
        await using var proxy = await TestHosts.StartProxyAsync(destination.Url, mode, "pool.idleTimeoutMs=1000");
        using var metrics = new ProxyMeterRecorder(proxy);
        var run = new FaultRunner(proxy.Port, destination, tally, FaultRate, Seed(mode));

        await run.RunAsync(Requests, Clients);

        await AssertOutcomeAsync(tally, metrics, destination, Enum.GetNames<ClientFault>());
    }

    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task Http2FaultsAtBothEnds_NoResponseReachesTheWrongStreamAndNoConnectionLeaks(string mode)
    {
        var tally = new FaultTally();
        var seed = 100 + Array.IndexOf(Http2Servers.OnEvery(LlrpModes.Every), mode);
        await using var destination = new FaultingDestination(0, FaultRate, seed, tally);
        await using var proxy = await TestHosts.StartProxyAsync(destination.Url, mode, "pool.idleTimeoutMs=1000");
        using var metrics = new ProxyMeterRecorder(proxy);
        var run = new FaultRunner(proxy.Port, destination, tally, FaultRate, seed);

        await run.RunHttp2Async(Requests, Clients / 4, StreamsPerClient);

        // Each stream's exchange is its own upstream request: a fault at either end reaches no other stream.
        Assert.True(tally.Collateral == 0, $"{tally.Collateral} requests failed with no fault injected into them: {Summary(tally)}");
        await AssertOutcomeAsync(tally, metrics, destination, Enum.GetNames<StreamFault>());
    }

    /// <summary>
    /// What every run must show: no response at the wrong request or with other bytes than its own, no exchange that
    /// neither ended nor was cut, each of <paramref name="clientFaults"/> and of the destination's faults injected, enough
    /// answered to prove anything, and both connection gauges back to 0 once the clients are gone and the destination
    /// has closed its side.
    /// </summary>
    private static async Task AssertOutcomeAsync(FaultTally tally, ProxyMeterRecorder metrics, FaultingDestination destination, string[] clientFaults)
    {
        var summary = Summary(tally);
        Assert.True(tally.Mismatches == 0, $"{tally.Mismatches} responses reached the wrong request or carried wrong bytes: {summary}");
        Assert.True(tally["client.stalled"] == 0, $"{tally["client.stalled"]} exchanges neither ended nor were cut: {summary}");
        foreach (var fault in clientFaults.Select(name => $"client.{name}").Concat(Enum.GetNames<DestinationFault>().Select(name => $"destination.{name}")))
        {
            Assert.True(tally[fault] > 0, $"No {fault} was injected: {summary}");
        }

        Assert.True(tally["status.200"] > Requests / 2, $"Too few requests got through to prove anything: {summary}");
        await metrics.WaitForSumAsync("llrp.client.active_connections", 0);
        destination.CloseAll();
        await metrics.WaitForSumAsync("llrp.upstream.active_connections", 0);
    }

    private static string Summary(FaultTally tally) => $"{tally.Describe()}\n{string.Join("\n", tally.Problems)}";

    private static int Seed(string mode) => 1 + Array.IndexOf(LlrpModes.Every, mode);
}
