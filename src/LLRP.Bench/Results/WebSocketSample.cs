using LLRP.Bench.Load;

namespace LLRP.Bench.Results;

/// <summary>One contender under the WebSocket echo in one round.</summary>
/// <param name="CpuMicrosecondsPerMessage">Proxy user + system CPU over the window ÷ messages echoed; null for direct or when none was.</param>
/// <param name="PeakResidentBytes">Peak RSS of the proxy's processes during the window; null for direct.</param>
/// <param name="AllocatedBytesPerMessage">Managed allocation rate ÷ messages/s; null unless a .NET contender echoed messages.</param>
public sealed record WebSocketSample(
    string Contender,
    LoadShape Shape,
    int Round,
    DateTime Timestamp,
    WebSocketEchoResult Echo,
    double? CpuMicrosecondsPerMessage,
    long? PeakResidentBytes,
    double? AllocatedBytesPerMessage);
