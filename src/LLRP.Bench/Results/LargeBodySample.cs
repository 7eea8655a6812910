namespace LLRP.Bench.Results;

/// <summary>One 1 GiB transfer through one contender in one round.</summary>
/// <param name="Error">Null when the whole body arrived with a 200; otherwise what went wrong.</param>
/// <param name="PeakResidentBytes">Peak RSS of the proxy's processes during the transfer; null for direct.</param>
/// <param name="CpuSeconds">Proxy user + system CPU during the transfer; null for direct.</param>
/// <param name="PairedDirectMegabytesPerSecond">
/// MB/s of the same transfer straight to the origin, made just before this one; null for direct, or when that one failed.
/// </param>
public sealed record LargeBodySample(
    string Contender,
    TransferDirection Direction,
    int Round,
    DateTime Timestamp,
    long Bytes,
    double Seconds,
    string? Error,
    long? PeakResidentBytes,
    double? CpuSeconds,
    double? PairedDirectMegabytesPerSecond)
{
    public double MegabytesPerSecond => MegabytesPerSecondOf(Bytes, Seconds);

    /// <summary>This transfer's MB/s ÷ its paired direct transfer's; null without one.</summary>
    public double? PerPairedDirect => PairedDirectMegabytesPerSecond is > 0 and var direct ? MegabytesPerSecond / direct : null;

    /// <summary><paramref name="bytes"/> moved in <paramref name="seconds"/>, in MB/s; 0 for no time.</summary>
    public static double MegabytesPerSecondOf(long bytes, double seconds) => seconds > 0 ? bytes / seconds / 1e6 : 0;
}
