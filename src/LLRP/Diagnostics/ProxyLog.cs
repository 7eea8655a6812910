using Microsoft.Extensions.Logging;

namespace LLRP.Diagnostics;

/// <summary>
/// Source-generated log messages: failures and changes of a destination's health only, never one per successful
/// request. Failures are called through <see cref="FailureLog"/>.
/// </summary>
internal static partial class ProxyLog
{
    [LoggerMessage(1, LogLevel.Information, "Rejected a request from {Client}: {Reason} ({Suppressed} more of this kind since the last line)")]
    public static partial void RequestRejected(ILogger logger, string? client, RejectionReason reason, int suppressed);

    [LoggerMessage(2, LogLevel.Warning, "Forwarding to {Destination} failed: {Error} ({Suppressed} more of this kind since the last line)")]
    public static partial void ForwardingFailed(ILogger logger, string destination, ForwarderError error, int suppressed, Exception? exception);

    [LoggerMessage(3, LogLevel.Warning, "Destination {Destination} ejected for {ReactivationMs} ms after {Failures} transport failures in a row")]
    public static partial void DestinationEjected(ILogger logger, string destination, long reactivationMs, int failures);

    [LoggerMessage(4, LogLevel.Warning, "Destination {Destination} is down: {Failures} failed health probes in a row ({Reason})")]
    public static partial void DestinationProbedDown(ILogger logger, string destination, int failures, string reason);

    [LoggerMessage(5, LogLevel.Information, "Destination {Destination} is up again: {Successes} successful health probes in a row")]
    public static partial void DestinationProbedUp(ILogger logger, string destination, int successes);

    [LoggerMessage(6, LogLevel.Information, "Routes and clusters reloaded from the configuration: {Routing}")]
    public static partial void RoutingReloaded(ILogger logger, string routing);

    [LoggerMessage(7, LogLevel.Error, "The reloaded configuration's routes and clusters were ignored, the current ones stay: {Error}")]
    public static partial void RoutingReloadRefused(ILogger logger, string error);

    [LoggerMessage(8, LogLevel.Warning, "Hot reload is off for the settings files in {Directory}: they cannot be watched ({Reason}); a change to them takes a restart")]
    public static partial void SettingsNotWatched(ILogger logger, string directory, string reason);

    [LoggerMessage(20, LogLevel.Warning, "Unknown configuration key '{Key}' ({Source}) is ignored; did you mean '{Nearest}'?")]
    public static partial void UnknownKey(ILogger logger, string key, string source, string nearest);

    [LoggerMessage(21, LogLevel.Information, "Stopping: draining {Connections} client connections (requests in flight finish, idle connections close); those still open after shutdownTimeoutMs={ShutdownTimeoutMs} are aborted")]
    public static partial void Draining(ILogger logger, int connections, long shutdownTimeoutMs);

    [LoggerMessage(22, LogLevel.Warning, "Shutdown timeout: aborting {Connections} client connections still open after shutdownTimeoutMs={ShutdownTimeoutMs}, with their requests in flight")]
    public static partial void AbortingAtShutdownTimeout(ILogger logger, int connections, long shutdownTimeoutMs);

    [LoggerMessage(23, LogLevel.Information, "Stopped {ElapsedMs} ms after the stop began; exiting")]
    public static partial void Stopped(ILogger logger, long elapsedMs);

    [LoggerMessage(24, LogLevel.Warning, "TLS handshake with destination {Host} failed: {Reason} ({Suppressed} more TLS failures since the last line)")]
    public static partial void TlsHandshakeFailed(ILogger logger, string host, string reason, int suppressed);

    [LoggerMessage(25, LogLevel.Warning, "Access log {Target} is behind: {Dropped} lines dropped so far (at most one warning a minute)")]
    public static partial void AccessLogLinesDropped(ILogger logger, string target, long dropped);

    [LoggerMessage(26, LogLevel.Error, "Access log {Target} failed, its lines are lost until it is reopened (SIGHUP): {Error}")]
    public static partial void AccessLogFailed(ILogger logger, string target, string error);
}
