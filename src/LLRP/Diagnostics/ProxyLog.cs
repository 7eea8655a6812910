using Microsoft.Extensions.Logging;

namespace LLRP.Diagnostics;

/// <summary>Source-generated log messages: failures only, never one per successful request. Called through <see cref="FailureLog"/>.</summary>
internal static partial class ProxyLog
{
    [LoggerMessage(1, LogLevel.Information, "Rejected a request from {Client}: {Reason} ({Suppressed} more of this kind since the last line)")]
    public static partial void RequestRejected(ILogger logger, string? client, RejectionReason reason, int suppressed);

    [LoggerMessage(2, LogLevel.Warning, "Forwarding to {Downstream} failed: {Error} ({Suppressed} more of this kind since the last line)")]
    public static partial void ForwardingFailed(ILogger logger, string downstream, ForwarderError error, int suppressed, Exception? exception);
}
