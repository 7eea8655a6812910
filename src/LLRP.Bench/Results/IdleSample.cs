namespace LLRP.Bench.Results;

/// <summary>One contender holding idle keep-alive client connections in one round.</summary>
/// <param name="Requested">Connections asked for.</param>
/// <param name="Opened">Connections that answered their GET with a 200 and were held open.</param>
/// <param name="ResidentBytesBefore">VmRSS summed over the contender's processes before the first connection.</param>
/// <param name="ResidentBytesAfter">The same, with the connections open and idle.</param>
/// <param name="UpstreamConnections">Established TCP connections from the contender's processes to the origin, while idle.</param>
/// <param name="Error">Null when every connection was opened; otherwise what went wrong.</param>
public sealed record IdleSample(
    string Contender,
    int Round,
    DateTime Timestamp,
    int Requested,
    int Opened,
    long ResidentBytesBefore,
    long ResidentBytesAfter,
    int UpstreamConnections,
    string? Error)
{
    /// <summary>RSS growth divided by the connections opened; null when none was.</summary>
    public double? BytesPerConnection => Opened > 0 ? (double)(ResidentBytesAfter - ResidentBytesBefore) / Opened : null;
}
