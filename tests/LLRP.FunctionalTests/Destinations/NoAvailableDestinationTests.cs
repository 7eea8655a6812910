using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Destinations;

/// <summary>
/// With no destination available the proxy answers at once <c>503 Service Unavailable</c> (RFC 9110 §15.6.4) with a
/// <c>Retry-After</c> (RFC 9110 §10.2.3) of at least a second and <c>Connection: close</c> (RFC 9112 §9.6): never a hang.
/// Every wait here is bounded by <see cref="Deadline.Io"/>.
/// </summary>
public sealed class NoAvailableDestinationTests
{
    private const int ReactivationSeconds = 30;

    /// <summary>
    /// Two dead destinations, each ejected after one failure: once both are out, a request gets 503 with a Retry-After
    /// within the reactivation period, and the connection is closed.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task EveryDestinationEjected_503WithRetryAfterAndClose(string mode)
    {
        var first = $"http://127.0.0.1:{LoopbackPort.Closed()}";
        var second = $"http://127.0.0.1:{LoopbackPort.Closed()}";
        await using var proxy = await TestHosts.StartProxyAsync(
            $"{first};{second}",
            mode,
            "health.passive.consecutiveFailures=1",
            $"health.passive.reactivationMs={ReactivationSeconds * 1000}");

        RawHttpResponse? unavailable = null;
        for (var attempt = 0; attempt < 3 && unavailable is null; attempt++)
        {
            await using var client = await proxy.ConnectAsync();
            var response = await client.GetAsync($"/x?{attempt}");
            if (response.StatusCode == 503)
            {
                unavailable = response;
                Assert.Contains("close", response.Head.Tokens("Connection"));
                await client.AssertClosedByPeerAsync();
            }
            else
            {
                Assert.True(response.StatusCode == 502, $"Expected 502 while a dead destination is tried, got:\n{response}");
            }
        }

        Assert.True(unavailable is not null, "No 503 after both destinations failed");
        Assert.InRange(ServiceUnavailable.RetryAfterSeconds(unavailable), 1, ReactivationSeconds);
    }

    /// <summary>Three destinations all failing their probes: a request gets 503 with a Retry-After and a close, and none reaches them.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task EveryDestinationProbedDown_503WithRetryAfterAndClose(string mode)
    {
        await using var first = DestinationOrigin.Start("A");
        await using var second = DestinationOrigin.Start("B");
        await using var third = DestinationOrigin.Start("C", TimeSpan.FromMilliseconds(100));
        DestinationOrigin[] origins = [first, second, third];
        foreach (var origin in origins)
        {
            origin.HealthStatus = 503;
        }

        await using var proxy = await TestHosts.StartProxyAsync($"{first.Url};{second.Url};{third.Url}", mode, ActiveHealth.Settings);
        foreach (var origin in origins)
        {
            await ActiveHealth.WaitUntilProbedDownAsync(origin);
        }

        await using var client = await proxy.ConnectAsync();
        var response = await client.GetAsync("/x");

        ServiceUnavailable.RetryAfterSeconds(response);
        Assert.Contains("close", response.Head.Tokens("Connection"));
        await client.AssertClosedByPeerAsync();
        Assert.All(origins, origin => Assert.Equal(0, origin.Served));
    }
}
