using LLRP.Bench.Load;

namespace LLRP.Tests.Benchmarks;

/// <summary>The gRPC unary load's callers' tallies read into the runner's wrk figures.</summary>
public sealed class GrpcCallTallyTests
{
    /// <summary>1,000,000 ticks per second: a tick is a microsecond.</summary>
    private const double TicksPerSecond = 1_000_000;

    [Fact]
    public void Tallies_CallsRatePercentilesByNearestRankAcrossCallers()
    {
        var first = new GrpcCallTally(64);
        var second = new GrpcCallTally(64);
        foreach (var i in Enumerable.Range(1, 100).Reverse())
        {
            (i % 2 == 0 ? first : second).LatencyTicks.Add(i * 10);
        }

        var result = GrpcCallTally.Summarize([first, second], 4, TicksPerSecond);

        Assert.Equal(100, result.Requests);
        Assert.Equal(25, result.RequestsPerSecond);
        Assert.Equal(4, result.DurationSeconds);
        Assert.Equal(500, result.LatencyP50Microseconds);
        Assert.Equal(750, result.LatencyP75Microseconds);
        Assert.Equal(900, result.LatencyP90Microseconds);
        Assert.Equal(990, result.LatencyP99Microseconds);
        Assert.Equal(1000, result.LatencyMaxMicroseconds);
        Assert.Equal(505, result.LatencyMeanMicroseconds);
    }

    [Fact]
    public void Failures_StatusNotOkAndNoStatusAreBad()
    {
        var tally = new GrpcCallTally(4) { FailedStatus = 2, FailedTransport = 3 };
        tally.LatencyTicks.AddRange([100, 200]);

        var result = GrpcCallTally.Summarize([tally, new GrpcCallTally(1) { FailedTransport = 1 }], 1, TicksPerSecond);

        Assert.Equal(2, result.Non2xxResponses);
        Assert.Equal(4, result.SocketErrors);
        Assert.Equal(6, result.BadResponses);
    }

    [Fact]
    public void NoCallEnded_RateZeroLatenciesUnknown()
    {
        var result = GrpcCallTally.Summarize([new GrpcCallTally(1) { FailedTransport = 8 }], 2, TicksPerSecond);

        Assert.Equal(0, result.Requests);
        Assert.Equal(0, result.RequestsPerSecond);
        Assert.True(double.IsNaN(result.LatencyP99Microseconds));
        Assert.True(double.IsNaN(result.LatencyMeanMicroseconds));
    }

    [Fact]
    public void Ticks_AreConvertedToMicroseconds()
    {
        var tally = new GrpcCallTally(1);
        tally.LatencyTicks.Add(3_000);

        var result = GrpcCallTally.Summarize([tally], 1, 1_000_000_000);

        Assert.Equal(3, result.LatencyP50Microseconds);
    }
}
