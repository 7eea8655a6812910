using System.Diagnostics;
using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Destinations;

/// <summary>
/// Keys <c>limits.maxConnectionsPerDestination</c>, <c>limits.maxQueuedPerDestination</c> and <c>limits.queueTimeoutMs</c>:
/// a destination at its limit takes no more request; one more waits in its queue (FIFO) for a slot, or gets 503 with a
/// Retry-After (RFC 9110 §15.6.4, §10.2.3) when the queue is full, at once, or when it waited too long. The slow origin
/// is one that holds each request until the test releases it, so that "still in flight" is a fact, not a timing.
/// </summary>
public sealed class DestinationLimitTests
{
    private const string OneAtATime = "limits.maxConnectionsPerDestination=1";

    /// <summary>The imprecision allowed to the proxy's timer when checking it waited the whole queue timeout.</summary>
    private static readonly TimeSpan ClockTolerance = TimeSpan.FromMilliseconds(20);

    /// <summary>No queue: while one request is in flight to the only destination, a second client's request gets 503 at once and never reaches it.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task AtLimitNoQueue_SecondRequest503(string mode)
    {
        await using var slow = DestinationOrigin.Start("S");
        await using var proxy = await TestHosts.StartProxyAsync(slow.Url, mode, OneAtATime, "limits.maxQueuedPerDestination=0");
        await using var first = await proxy.ConnectAsync();
        await using var second = await proxy.ConnectAsync();
        slow.Hold();

        var firstResponse = first.GetAsync("/first");
        await Deadline.UntilAsync(() => slow.Served == 1, "The first request reaching the destination");
        var rejected = await second.GetAsync("/second");
        slow.Release();

        ServiceUnavailable.RetryAfterSeconds(rejected);
        Assert.Equal(200, (await firstResponse).StatusCode);
        Assert.Equal(["/first"], slow.Requests.Select(request => request.Target));
    }

    /// <summary>A queue of one: the second client's request waits while the first is in flight, and is served once the destination answers the first.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task AtLimitQueued_ServedWhenSlotFrees(string mode)
    {
        await using var slow = DestinationOrigin.Start("S");
        // The queue timeout is no shorter than the tests' own deadline: whether the second request is served depends
        // only on the destination answering the first, not on how fast this machine runs.
        await using var proxy = await TestHosts.StartProxyAsync(
            slow.Url, mode, OneAtATime, "limits.maxQueuedPerDestination=1", $"limits.queueTimeoutMs={Deadline.Io.TotalMilliseconds}");
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var first = await proxy.ConnectAsync();
        await using var second = await proxy.ConnectAsync();
        slow.Hold();

        var firstResponse = first.GetAsync("/first");
        await Deadline.UntilAsync(() => slow.Served == 1, "The first request reaching the destination");
        var secondResponse = second.GetAsync("/second");
        await Deadline.UntilAsync(() => metrics.Observe("llrp.destination.queued") == 1, "The second request waiting in the queue");
        Assert.Equal(1, slow.Served);
        slow.Release();

        Assert.Equal(200, (await firstResponse).StatusCode);
        Assert.Equal(200, (await secondResponse).StatusCode);
        Assert.Equal(["/first", "/second"], slow.Requests.Select(request => request.Target));
        Assert.Equal(0, metrics.Observe("llrp.destination.queued"));
    }

    /// <summary>
    /// A queue of one with a 200 ms timeout, the destination slower than that: the second request gets 503 with a
    /// Retry-After, not before it has waited the timeout, and never reaches the destination.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task AtLimitQueued_503AfterQueueTimeout(string mode)
    {
        var queueTimeout = TimeSpan.FromMilliseconds(200);
        await using var slow = DestinationOrigin.Start("S");
        await using var proxy = await TestHosts.StartProxyAsync(
            slow.Url, mode, OneAtATime, "limits.maxQueuedPerDestination=1", $"limits.queueTimeoutMs={queueTimeout.TotalMilliseconds}");
        await using var first = await proxy.ConnectAsync();
        await using var second = await proxy.ConnectAsync();
        slow.Hold();

        var firstResponse = first.GetAsync("/first");
        await Deadline.UntilAsync(() => slow.Served == 1, "The first request reaching the destination");
        var sent = Stopwatch.GetTimestamp();
        var timedOut = await second.GetAsync("/second");
        var waited = Stopwatch.GetElapsedTime(sent);
        slow.Release();

        Assert.Equal(1, ServiceUnavailable.RetryAfterSeconds(timedOut));
        Assert.True(waited >= queueTimeout - ClockTolerance, $"Answered 503 after {waited.TotalMilliseconds} ms, before the queue timeout");
        Assert.Equal(200, (await firstResponse).StatusCode);
        Assert.Equal(["/first"], slow.Requests.Select(request => request.Target));
    }
}
