namespace LLRP.Bench.Results;

/// <summary>One 1 GiB transfer through one contender in one round.</summary>
/// <param name="Error">Null when the whole body arrived with a 200; otherwise what went wrong.</param>
/// <param name="PeakResidentBytes">Peak RSS of the proxy's processes during the transfer; null for direct.</param>
/// <param name="CpuSeconds">Proxy user + system CPU during the transfer; null for direct.</param>
public sealed record LargeBodySample(
    string Contender,
    TransferDirection Direction,
    int Round,
    DateTime Timestamp,
    long Bytes,
    double Seconds,
    string? Error,
    long? PeakResidentBytes,
    double? CpuSeconds)
{
    public double MegabytesPerSecond => Seconds > 0 ? Bytes / Seconds / 1e6 : 0;
}
