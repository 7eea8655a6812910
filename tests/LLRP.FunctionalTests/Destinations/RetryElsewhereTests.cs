using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Destinations;

/// <summary>
/// Key <c>retries.max</c>: an idempotent request (RFC 9110 §9.2.2) that a destination left unanswered (connect refused,
/// or the connection closed before any response byte) goes to another destination, never the same one twice; a
/// non-idempotent one (RFC 9110 §9.2.2, POST) never does. Passive health is off, so the failing destination stays in turn.
/// </summary>
public sealed class RetryElsewhereTests
{
    private const string NoEjection = "health.passive.consecutiveFailures=0";

    /// <summary>One destination refuses connections: every GET is served by the other, each once, and the refusals were retried.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.PerRequest), MemberType = typeof(LlrpModes))]
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

    /// <summary>
    /// One destination accepts, reads the request and closes without answering: every GET is served by the other, and the
    /// closing destination saw each GET routed to it exactly once (it is not tried twice for one request).
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.PerRequest), MemberType = typeof(LlrpModes))]
    public async Task Get_ClosedBeforeResponse_RetriedOnOtherDestinationOnce(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        await using var closing = ClosesWithoutAnswering();
        await using var proxy = await TestHosts.StartProxyAsync($"{closing.Url};{healthy.Url}", mode, "balancing=roundRobin", NoEjection);
        await using var client = await proxy.ConnectAsync();

        for (var i = 0; i < 8; i++)
        {
            var response = await client.GetAsync($"/x?{i}");
            Assert.True(response.StatusCode == 200 && response.BodyText == "H", $"GET {i}: expected the healthy destination's answer, got:\n{response}");
        }

        var tried = closing.Requests.Select(request => request.Target).ToArray();
        Assert.NotEmpty(tried);
        Assert.True(tried.Distinct().Count() == tried.Length, $"A GET reached the closing destination twice: {string.Join(' ', tried)}");
        Assert.Equal(Enumerable.Range(0, 8).Select(i => $"/x?{i}"), healthy.Requests.Select(request => request.Target));
    }

    /// <summary>
    /// A POST the closing destination read and left unanswered is answered 502 and reaches no other destination: it may
    /// have had effects. POSTs the healthy destination got are served, each once.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.PerRequest), MemberType = typeof(LlrpModes))]
    public async Task Post_ClosedBeforeResponse_NeverRetried502(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        await using var closing = ClosesWithoutAnswering();
        await using var proxy = await TestHosts.StartProxyAsync($"{closing.Url};{healthy.Url}", mode, "balancing=roundRobin", NoEjection);

        var failed = new List<string>();
        for (var i = 0; i < 4; i++)
        {
            await using var client = await proxy.ConnectAsync();
            var target = $"/post?{i}";
            await client.SendAsync($"POST {target} HTTP/1.1\r\nHost: client.test\r\nContent-Length: 4\r\n\r\nbody");
            var response = await client.ReadResponseAsync("POST");
            Assert.True(response.StatusCode is 200 or 502, $"POST {i}: expected 200 or 502, got:\n{response}");
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

    /// <summary><c>retries.max=0</c>: a GET the closing destination left unanswered is answered 502 and reaches no other destination.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.PerRequest), MemberType = typeof(LlrpModes))]
    public async Task RetriesOff_GetClosedBeforeResponse502(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        await using var closing = ClosesWithoutAnswering();
        await using var proxy = await TestHosts.StartProxyAsync(
            $"{closing.Url};{healthy.Url}", mode, "balancing=roundRobin", NoEjection, "retries.max=0");

        var failed = new List<string>();
        for (var i = 0; i < 4; i++)
        {
            var target = $"/x?{i}";
            var response = await proxy.GetOnNewConnectionAsync(target);
            Assert.True(response.StatusCode is 200 or 502, $"GET {i}: expected 200 or 502, got:\n{response}");
            if (response.StatusCode == 502)
            {
                failed.Add(target);
            }
        }

        Assert.NotEmpty(failed);
        Assert.Equal(failed, closing.Requests.Select(request => request.Target));
        Assert.Empty(healthy.Requests.Select(request => request.Target).Intersect(failed));
    }

    /// <summary><c>retries.max=0</c>: a GET whose connect was refused is answered 502, not sent elsewhere.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.PerRequest), MemberType = typeof(LlrpModes))]
    public async Task RetriesOff_GetConnectRefused502(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        var dead = $"http://127.0.0.1:{LoopbackPort.Closed()}";
        await using var proxy = await TestHosts.StartProxyAsync(
            $"{dead};{healthy.Url}", mode, "balancing=roundRobin", NoEjection, "retries.max=0");

        var statuses = new List<int>();
        for (var i = 0; i < 4; i++)
        {
            statuses.Add((await proxy.GetOnNewConnectionAsync($"/x?{i}")).StatusCode);
        }

        Assert.True(statuses.All(status => status is 200 or 502) && statuses.Contains(502), $"Statuses: {string.Join(' ', statuses)}");
        Assert.Equal(statuses.Count(status => status == 200), healthy.Served);
    }

    /// <summary>An origin that reads each request and closes the connection without a byte of response.</summary>
    private static ScriptedOrigin ClosesWithoutAnswering() => ScriptedOrigin.Start(async connection => await connection.ReadRequestAsync());
}
