namespace LLRP.Bench.Load;

/// <summary>What one WebSocket echo run measured. A message is one round trip: the message sent and its whole echo read back.</summary>
public sealed record WebSocketEchoResult
{
    public required int Connections { get; init; }

    public required int MessageBytes { get; init; }

    /// <summary>Echoes received whole and equal to what was sent.</summary>
    public required long Messages { get; init; }

    /// <summary>From the first connection attempt to the last connection's end.</summary>
    public required double Seconds { get; init; }

    /// <summary>Connections that ended in an error (refused handshake, close or abort by the other side, an echo that differs, no echo in time).</summary>
    public required int Errors { get; init; }

    /// <summary>The first error, as the client saw it; null when none.</summary>
    public required string? FirstError { get; init; }

    public required double LatencyMeanMicroseconds { get; init; }

    public required double LatencyP50Microseconds { get; init; }

    public required double LatencyP99Microseconds { get; init; }

    public required double LatencyMaxMicroseconds { get; init; }

    public double MessagesPerSecond => Seconds > 0 ? Messages / Seconds : 0;

    /// <summary>Payload megabytes per second in each direction (the echo carries as much back as was sent).</summary>
    public double MegabytesPerSecondEachWay => MessagesPerSecond * MessageBytes / 1e6;
}
