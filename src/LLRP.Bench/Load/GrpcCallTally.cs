using System.Diagnostics;

namespace LLRP.Bench.Load;

/// <summary>
/// What one caller of <see cref="GrpcUnaryLoad"/> counted: the latency of every call that ended with a status, in
/// <see cref="Stopwatch"/> ticks, the calls that ended with a status other than OK, and the calls that failed without one.
/// <see cref="Summarize"/> turns the tallies of all callers into the figures wrk gives.
/// </summary>
public sealed class GrpcCallTally(int capacity)
{
    /// <summary>Every call that ended with a status, OK or not; appended by one caller only.</summary>
    public List<long> LatencyTicks { get; } = new(capacity);

    /// <summary>Calls that ended with a gRPC status other than OK.</summary>
    public long FailedStatus { get; set; }

    /// <summary>Calls that ended without a status (no connection, the stream reset, the deadline of the run passed).</summary>
    public long FailedTransport { get; set; }

    /// <summary>The first failure, for the run's output.</summary>
    public string? FirstError { get; set; }

    /// <summary>
    /// Requests = calls that ended with a status; requests/s = those per second of <paramref name="seconds"/>; latency
    /// mean, max and percentiles (nearest rank) over them; non-2xx = calls with a status other than OK; socket errors =
    /// calls without a status.
    /// </summary>
    public static WrkResult Summarize(IReadOnlyCollection<GrpcCallTally> tallies, double seconds, double ticksPerSecond)
    {
        var sorted = tallies.SelectMany(t => t.LatencyTicks).Select(ticks => ticks * 1e6 / ticksPerSecond).Order().ToArray();
        double Percentile(double fraction) => sorted.Length == 0 ? double.NaN : sorted[Math.Max(0, (int)Math.Ceiling(fraction * sorted.Length) - 1)];
        return new WrkResult
        {
            Requests = sorted.Length,
            DurationSeconds = seconds,
            RequestsPerSecond = seconds > 0 ? sorted.Length / seconds : 0,
            LatencyMeanMicroseconds = sorted.Length == 0 ? double.NaN : sorted.Average(),
            LatencyMaxMicroseconds = sorted.Length == 0 ? double.NaN : sorted[^1],
            LatencyP50Microseconds = Percentile(0.50),
            LatencyP75Microseconds = Percentile(0.75),
            LatencyP90Microseconds = Percentile(0.90),
            LatencyP99Microseconds = Percentile(0.99),
            Non2xxResponses = tallies.Sum(t => t.FailedStatus),
            SocketErrors = tallies.Sum(t => t.FailedTransport),
        };
    }
}
