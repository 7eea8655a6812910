using LLRP.Bench.Results;

namespace LLRP.Tests.Benchmarks;

/// <summary>A 1 GiB transfer's ratio to the same transfer straight to the origin, made just before it in its round.</summary>
public sealed class LargeBodySampleTests
{
    private const long GiB = 1L << 30;

    [Fact]
    public void PerPairedDirect_IsThisTransfersSpeedOverItsPairs()
    {
        // 1 GiB in 4 s is 268.4 MB/s; its pair moved at 300 MB/s.
        var sample = Transfer(seconds: 4, pairedDirect: 300);

        Assert.Equal(GiB / 4.0 / 1e6 / 300, sample.PerPairedDirect!.Value, 9);
        Assert.Equal(0.8948, sample.PerPairedDirect!.Value, 4);
    }

    [Fact]
    public void PerPairedDirect_TheSameSpeedAsItsPair_IsOne()
    {
        var sample = Transfer(seconds: 2, pairedDirect: GiB / 2.0 / 1e6);

        Assert.Equal(1.0, sample.PerPairedDirect!.Value, 9);
    }

    [Theory]
    [InlineData(null)]
    [InlineData(0.0)]
    public void PerPairedDirect_NoPairOrAFailedOne_IsNull(double? pairedDirect)
    {
        Assert.Null(Transfer(seconds: 4, pairedDirect).PerPairedDirect);
    }

    private static LargeBodySample Transfer(double seconds, double? pairedDirect)
        => new("llrp-tcp", TransferDirection.Upload, 1, DateTime.UtcNow, GiB, seconds, null, 70_000_000, 0.6, pairedDirect);
}
