using LLRP.Upstream.Yarp;

namespace LLRP.Tests.Upstream.Yarp;

/// <summary>
/// YARP's activity timeout for an upgrade request (<see cref="YarpForwarder.UpgradeActivityTimeout"/>): never shorter
/// than the response headers timeout, which alone bounds the wait for the <c>101</c>, and outlasting the tunnel idle
/// timeout, which the session's heartbeat keeps.
/// </summary>
public sealed class UpgradeActivityTimeoutTests
{
    [Theory]
    [InlineData(100_000, 300_000, 302_000)]
    [InlineData(100_000, 200, 100_000)]
    [InlineData(300, 200, 2_200)]
    [InlineData(5_000, 3_000, 5_000)]
    public void LongerOfResponseHeadersTimeoutAndTwoHeartbeatsPastTheIdleTimeout(int responseHeadersMs, int tunnelIdleMs, int expectedMs)
    {
        var timeout = YarpForwarder.UpgradeActivityTimeout(TimeSpan.FromMilliseconds(responseHeadersMs), TimeSpan.FromMilliseconds(tunnelIdleMs));

        Assert.Equal(TimeSpan.FromMilliseconds(expectedMs), timeout);
    }

    [Fact]
    public void LongestTimeouts_CappedAtWhatYarpsTimerTakes()
    {
        var longest = TimeSpan.FromMilliseconds(int.MaxValue);

        Assert.Equal(longest, YarpForwarder.UpgradeActivityTimeout(longest, longest));
    }
}
