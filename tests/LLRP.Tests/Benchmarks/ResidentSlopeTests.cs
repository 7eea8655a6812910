using LLRP.Bench.Results;

namespace LLRP.Tests.Benchmarks;

/// <summary>The idle measure's arithmetic: RSS read at several counts of one growing set of idle connections.</summary>
public sealed class ResidentSlopeTests
{
    [Fact]
    public void LeastSquares_ReadingsOnALine_IsTheLinesSlope()
    {
        IdleStep[] steps = [new(1_000, 60_000_000), new(2_000, 66_000_000), new(3_000, 72_000_000), new(4_000, 78_000_000)];

        Assert.Equal(6_000, ResidentSlope.LeastSquares(steps)!.Value, 6);
    }

    [Fact]
    public void LeastSquares_OneReadingOff_IsTheFitNotTheEnds()
    {
        // 6,000 B per connection, the third reading 3 MB low (a GC gave pages back): the fit weighs all four readings,
        // where the ends alone would still say 6,000 and the last step alone 9,000.
        IdleStep[] steps = [new(1_000, 60_000_000), new(2_000, 66_000_000), new(3_000, 69_000_000), new(4_000, 78_000_000)];

        // x − mean: −1500, −500, 500, 1500; the third reading's −3 MB moves the covariance by 500 × −3e6 over 5e6.
        Assert.Equal(5_700, ResidentSlope.LeastSquares(steps)!.Value, 6);
    }

    [Fact]
    public void LeastSquares_AConstantAddedToEveryReading_LeavesTheSlope()
    {
        IdleStep[] steps = [new(1_000, 60_000_000), new(2_000, 65_000_000), new(4_000, 79_000_000)];
        IdleStep[] shifted = [.. steps.Select(s => s with { ResidentBytes = s.ResidentBytes + 40_000_000 })];

        Assert.Equal(ResidentSlope.LeastSquares(steps)!.Value, ResidentSlope.LeastSquares(shifted)!.Value, 6);
    }

    [Fact]
    public void LeastSquares_FewerThanTwoCounts_IsNull()
    {
        Assert.Null(ResidentSlope.LeastSquares([new(4_000, 78_000_000)]));
        Assert.Null(ResidentSlope.LeastSquares([new(4_000, 78_000_000), new(4_000, 79_000_000)]));
    }

    [Fact]
    public void Increments_EachStepsGrowthOverWhatItAdded_StepsThatAddedNoneSkipped()
    {
        IdleStep[] steps = [new(0, 50_000_000), new(1_000, 60_000_000), new(1_000, 61_000_000), new(3_000, 70_000_000)];

        Assert.Equal([10_000, 4_500], ResidentSlope.Increments(steps));
    }

    [Fact]
    public void IdleSample_SlopeLeavesOutTheReadingBefore_FromBeforeCountsIt()
    {
        // 20 MB paid once by the first quarter (a pool's first blocks, say), then 6,000 B per connection.
        var sample = new IdleSample(
            "llrp",
            1,
            DateTime.UnixEpoch,
            4_000,
            [new(0, 40_000_000), new(1_000, 66_000_000), new(2_000, 72_000_000), new(3_000, 78_000_000), new(4_000, 84_000_000)],
            0,
            null);

        Assert.Equal(4_000, sample.Opened);
        Assert.Equal(40_000_000, sample.ResidentBytesBefore);
        Assert.Equal(6_000, sample.SlopeBytesPerConnection!.Value, 6);
        Assert.Equal(11_000, sample.BytesPerConnection!.Value, 6);
    }
}
