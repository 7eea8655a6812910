namespace LLRP.Bench.Load;

/// <summary>What one wrk run reports. Latencies are in microseconds.</summary>
public sealed record WrkResult
{
    public required long Requests { get; init; }

    public required double DurationSeconds { get; init; }

    public required double RequestsPerSecond { get; init; }

    public required double LatencyMeanMicroseconds { get; init; }

    public required double LatencyMaxMicroseconds { get; init; }

    public required double LatencyP50Microseconds { get; init; }

    public required double LatencyP75Microseconds { get; init; }

    public required double LatencyP90Microseconds { get; init; }

    public required double LatencyP99Microseconds { get; init; }

    /// <summary>Responses whose status is not 2xx (counted by scripts/wrk/status.lua).</summary>
    public required long Non2xxResponses { get; init; }

    /// <summary>wrk's socket errors: connect + read + write + timeout.</summary>
    public required long SocketErrors { get; init; }

    public long BadResponses => Non2xxResponses + SocketErrors;
}
