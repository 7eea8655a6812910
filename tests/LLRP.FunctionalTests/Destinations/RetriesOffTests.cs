using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Destinations;

/// <summary>
/// <c>retries.max=0</c>: a request a destination left unanswered is answered 502 (RFC 9110 §15.6.3), even an idempotent
/// one, and reaches no other destination. Passive health is off, so the failing destination stays in turn.
/// </summary>
public sealed class RetriesOffTests
{
    /// <summary><c>retries.max=0</c>: a GET the closing destination left unanswered is answered 502 and reaches no other destination.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task Get_ClosedBeforeResponse502NotRetried(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        await using var closing = ScriptedOrigin.ClosesWithoutAnswering();
        await using var proxy = await TestHosts.StartProxyAsync(
            $"{closing.Url};{healthy.Url}", mode, "balancing=roundRobin", RetryElsewhereTests.NoEjection, "retries.max=0");

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
        Assert.Equal(failed, closing.Requests.Select(request => request.Target).Distinct());
        RetryElsewhereTests.AssertEachAttemptedOnce(closing, mode);
        Assert.Empty(healthy.Requests.Select(request => request.Target).Intersect(failed));
    }

    /// <summary><c>retries.max=0</c>: a GET whose connect was refused is answered 502, not sent elsewhere.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task Get_ConnectRefused502NotRetried(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        var dead = $"http://127.0.0.1:{LoopbackPort.Closed()}";
        await using var proxy = await TestHosts.StartProxyAsync(
            $"{dead};{healthy.Url}", mode, "balancing=roundRobin", RetryElsewhereTests.NoEjection, "retries.max=0");

        var statuses = new List<int>();
        for (var i = 0; i < 4; i++)
        {
            statuses.Add((await proxy.GetOnNewConnectionAsync($"/x?{i}")).StatusCode);
        }

        Assert.True(statuses.All(status => status is 200 or 502) && statuses.Contains(502), $"Statuses: {string.Join(' ', statuses)}");
        Assert.Equal(statuses.Count(status => status == 200), healthy.Served);
    }
}
