using LLRP.Http1;
using LLRP.Upstream.Sockets;
using Microsoft.Extensions.Logging;

namespace LLRP.Diagnostics;

/// <summary>Source-generated log messages: failures only, never one per successful request.</summary>
internal static partial class ProxyLog
{
    [LoggerMessage(1, LogLevel.Debug, "Rejected a request from {Client}: {Reason}")]
    public static partial void RequestRejected(ILogger logger, string? client, RejectionReason reason);

    [LoggerMessage(2, LogLevel.Warning, "Forwarding to {Downstream} failed: {Error}")]
    public static partial void ForwardingFailed(ILogger logger, string downstream, ForwarderError error, Exception? exception);
}
