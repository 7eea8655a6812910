using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Destinations;

/// <summary>
/// Key <c>retries.max</c>: an idempotent request (RFC 9110 §9.2.2) that a destination left unanswered (connect refused,
/// or the connection closed before any response byte) goes to another destination, never back to one it tried; a
/// non-idempotent one (RFC 9110 §9.2.2, POST) never does. Passive health is off, so the failing destination stays in turn.
/// In the modes over HttpClient the handler's own resends to the same destination come first
/// (<see cref="LlrpModes.SendsPerDestination"/>).
/// </summary>
public sealed class RetryElsewhereTests
{
    public const string NoEjection = "health.passive.consecutiveFailures=0";

    /// <summary>One destination refuses connections: every GET is served by the other, each once, and the refusals were retried.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task Get_ConnectRefused_RetriedOnOtherDestination(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        var dead = $"http://127.0.0.1:{LoopbackPort.Closed()}";
        await using var proxy = await TestHosts.StartProxyAsync($"{dead};{healthy.Url}", mode, "balancing=roundRobin", NoEjection);
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var client = await proxy.ConnectAsync();

        for (var i = 0; i < 8; i++)
        {
            var response = await client.GetAsync($"/x?{i}");
            Assert.True(response.StatusCode == 200 && response.BodyText == "H", $"GET {i}: expected the healthy destination's answer, got:\n{response}");
        }

        Assert.Equal(Enumerable.Range(0, 8).Select(i => $"/x?{i}"), healthy.Requests.Select(request => request.Target));
        Assert.True(metrics.Sum("llrp.retries", "destination", dead + "/") >= 3, metrics.Describe("llrp.retries"));
    }

    /// <summary>Methods that are not idempotent, in raw mode, which connects before it takes a request's body.</summary>
    public static TheoryData<string, string> NotIdempotentRaw => LlrpModes.Cross(LlrpModes.RawOnly, "POST", "PATCH");

    /// <summary>
    /// Key <c>retries.unsentAnyMethod</c> (on by default): a POST or PATCH whose connect was refused was never sent, so it
    /// goes to the other destination, its body with it; with the key off it is answered 502, as before. (The modes over
    /// HttpClient connect inside the handler, once the body is on its way: there a request with a body is not retried.)
    /// </summary>
    [Theory]
    [MemberData(nameof(NotIdempotentRaw))]
    public async Task NotIdempotent_ConnectRefused_RetriedElsewhereUnlessUnsentRetriesOff(string mode, string method)
    {
        foreach (var unsentAnyMethod in new[] { true, false })
        {
            await using var healthy = DestinationOrigin.Start("H");
            var dead = $"http://127.0.0.1:{LoopbackPort.Closed()}";
            await using var proxy = await TestHosts.StartProxyAsync($"{dead};{healthy.Url}", mode, "balancing=roundRobin", NoEjection, $"retries.unsentAnyMethod={unsentAnyMethod}");
            var statuses = new List<int>();
            for (var i = 0; i < 4; i++)
            {
                await using var client = await proxy.ConnectAsync();
                await client.SendAsync($"{method} /change?{i} HTTP/1.1\r\nHost: client.test\r\nContent-Length: 4\r\n\r\nbody");
                statuses.Add((await client.ReadResponseAsync(method)).StatusCode);
            }

            if (unsentAnyMethod)
            {
                Assert.All(statuses, status => Assert.Equal(200, status));
                Assert.Equal(4, healthy.Served);
                Assert.All(healthy.Requests, request => Assert.Equal("body", request.BodyText));
            }
            else
            {
                Assert.Contains(502, statuses);
                Assert.Equal(statuses.Count(status => status == 200), healthy.Served);
            }
        }
    }

    /// <summary>Idempotent methods without a body (RFC 9110 §9.2.2).</summary>
    public static TheoryData<string, string> Idempotent => LlrpModes.Cross(LlrpModes.EveryWithSharedClients, "GET", "DELETE", "OPTIONS");

    /// <summary>Methods that are not idempotent (RFC 9110 §9.2.2), each with a small body.</summary>
    public static TheoryData<string, string> NotIdempotent => LlrpModes.Cross(LlrpModes.EveryWithSharedClients, "POST", "PATCH");

    /// <summary>
    /// One destination accepts, reads the request and closes without answering: every idempotent request is served by
    /// the other, once, and the closing destination saw each one only in the one attempt routed to it.
    /// </summary>
    [Theory]
    [MemberData(nameof(Idempotent))]
    public async Task Idempotent_ClosedBeforeResponse_RetriedOnOtherDestinationOnce(string mode, string method)
    {
        await using var healthy = DestinationOrigin.Start("H");
        await using var closing = ScriptedOrigin.ClosesWithoutAnswering();
        await using var proxy = await TestHosts.StartProxyAsync($"{closing.Url};{healthy.Url}", mode, "balancing=roundRobin", NoEjection);
        await using var client = await proxy.ConnectAsync();

        for (var i = 0; i < 8; i++)
        {
            await client.SendAsync($"{method} /x?{i} HTTP/1.1\r\nHost: client.test\r\n\r\n");
            var response = await client.ReadResponseAsync(method);
            Assert.True(response.StatusCode == 200 && response.BodyText == "H", $"{method} {i}: expected the healthy destination's answer, got:\n{response}");
        }

        AssertEachAttemptedOnce(closing, mode);
        Assert.Equal(Enumerable.Range(0, 8).Select(i => $"/x?{i}"), healthy.Requests.Select(request => request.Target));
    }

    /// <summary>
    /// The default policy (a destination per client connection, kept while available) in every configuration: a
    /// connection whose destination closes without answering still has each GET served elsewhere, once.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Get_PerConnectionPolicy_ClosedBeforeResponse_RetriedElsewhere(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        await using var closing = ScriptedOrigin.ClosesWithoutAnswering();
        await using var proxy = await TestHosts.StartProxyAsync($"{closing.Url};{healthy.Url}", mode, NoEjection);

        for (var connection = 0; connection < 2; connection++)
        {
            await using var client = await proxy.ConnectAsync();
            for (var i = 0; i < 3; i++)
            {
                var response = await client.GetAsync($"/x?{connection}-{i}");
                Assert.True(response.StatusCode == 200 && response.BodyText == "H", $"GET {connection}-{i}: expected the healthy destination's answer, got:\n{response}");
            }
        }

        AssertEachAttemptedOnce(closing, mode);
        Assert.Equal(6, healthy.Served);
    }

    /// <summary>
    /// Two destinations close without answering, one is healthy, <c>retries.max=1</c>: a GET is tried on two
    /// destinations at most, each once; it is answered 200 exactly when the healthy one got it, else 502.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task Get_RetriesMaxBoundsDestinationsTried(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        await using var closing = ScriptedOrigin.ClosesWithoutAnswering();
        await using var alsoClosing = ScriptedOrigin.ClosesWithoutAnswering();
        await using var proxy = await TestHosts.StartProxyAsync(
            $"{closing.Url};{alsoClosing.Url};{healthy.Url}", mode, "balancing=roundRobin", NoEjection, "retries.max=1");

        var statuses = new Dictionary<string, int>();
        for (var i = 0; i < 9; i++)
        {
            var target = $"/x?{i}";
            statuses[target] = (await proxy.GetOnNewConnectionAsync(target)).StatusCode;
        }

        foreach (var (target, status) in statuses)
        {
            var destinations = new[] { closing.Requests, alsoClosing.Requests, healthy.Requests }.Count(requests => requests.Any(request => request.Target == target));
            var served = healthy.Requests.Any(request => request.Target == target);
            Assert.True(
                destinations is >= 1 and <= 2 && status == (served ? 200 : 502),
                $"{target}: answered {status}, tried on {destinations} destinations, healthy destination {(served ? "got" : "did not get")} it");
        }

        AssertEachAttemptedOnce(closing, mode);
        AssertEachAttemptedOnce(alsoClosing, mode);
    }

    /// <summary>
    /// A request that is not idempotent, read and left unanswered by the closing destination, is answered 502 and
    /// reaches no other destination: it may have had effects. Those the healthy destination got are served, each once.
    /// </summary>
    [Theory]
    [MemberData(nameof(NotIdempotent))]
    public async Task NotIdempotent_ClosedBeforeResponse_NeverRetried502(string mode, string method)
    {
        await using var healthy = DestinationOrigin.Start("H");
        await using var closing = ScriptedOrigin.ClosesWithoutAnswering();
        await using var proxy = await TestHosts.StartProxyAsync($"{closing.Url};{healthy.Url}", mode, "balancing=roundRobin", NoEjection);

        var failed = new List<string>();
        for (var i = 0; i < 4; i++)
        {
            await using var client = await proxy.ConnectAsync();
            var target = $"/change?{i}";
            await client.SendAsync($"{method} {target} HTTP/1.1\r\nHost: client.test\r\nContent-Length: 4\r\n\r\nbody");
            var response = await client.ReadResponseAsync(method);
            Assert.True(response.StatusCode is 200 or 502, $"{method} {i}: expected 200 or 502, got:\n{response}");
            if (response.StatusCode == 502)
            {
                failed.Add(target);
            }
        }

        Assert.NotEmpty(failed);
        Assert.Equal(failed, closing.Requests.Select(request => request.Target));
        Assert.Empty(healthy.Requests.Select(request => request.Target).Intersect(failed));
        Assert.Equal(4 - failed.Count, healthy.Served);
    }

    /// <summary>
    /// The closing destination got requests, and each in one attempt only: once in raw mode, at most the handler's own
    /// resends in the modes over HttpClient, never a second attempt of the proxy.
    /// </summary>
    internal static void AssertEachAttemptedOnce(ScriptedOrigin closing, string mode)
    {
        var sends = closing.Requests.GroupBy(request => request.Target).ToArray();
        Assert.NotEmpty(sends);
        Assert.All(sends, target => Assert.True(
            target.Count() <= LlrpModes.SendsPerDestination(mode),
            $"{target.Key} reached the closing destination {target.Count()} times (at most {LlrpModes.SendsPerDestination(mode)} in {mode})"));
    }
}
