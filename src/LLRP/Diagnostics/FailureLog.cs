using System.Net;
using Microsoft.Extensions.Logging;

namespace LLRP.Diagnostics;

/// <summary>
/// Logs failures at most once a second per kind, so a flood of bad requests or a dead destination costs one line a
/// second; each line says how many of its kind were left out since the previous one.
/// </summary>
internal sealed class FailureLog(ILogger logger)
{
    private readonly LogGate[] _rejections = new LogGate[Enum.GetValues<RejectionReason>().Length];
    private readonly LogGate[] _failures = new LogGate[Enum.GetValues<ForwarderError>().Length];
    private LogGate _tlsHandshakes;

    public void RequestRejected(EndPoint? client, RejectionReason reason)
    {
        if (logger.IsEnabled(LogLevel.Information) && _rejections[(int)reason].TryPass(Environment.TickCount64, out var suppressed))
        {
            ProxyLog.RequestRejected(logger, client?.ToString(), reason, suppressed);
        }
    }

    public void ForwardingFailed(string destination, ForwarderError error, Exception? exception = null)
    {
        if (logger.IsEnabled(LogLevel.Warning) && _failures[(int)error].TryPass(Environment.TickCount64, out var suppressed))
        {
            ProxyLog.ForwardingFailed(logger, destination, error, suppressed, exception);
        }
    }

    /// <summary>A TLS handshake with the destination <paramref name="host"/> failed, for <paramref name="reason"/>.</summary>
    public void TlsHandshakeFailed(string host, string reason)
    {
        if (logger.IsEnabled(LogLevel.Warning) && _tlsHandshakes.TryPass(Environment.TickCount64, out var suppressed))
        {
            ProxyLog.TlsHandshakeFailed(logger, host, reason, suppressed);
        }
    }

    /// <summary>A destination ejected by passive health: rare, logged each time.</summary>
    public void DestinationEjected(string destination, long reactivationMs, int failures)
        => ProxyLog.DestinationEjected(logger, destination, reactivationMs, failures);
}
