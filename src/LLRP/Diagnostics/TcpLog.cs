using Microsoft.Extensions.Logging;

namespace LLRP.Diagnostics;

/// <summary>The TCP front end's log lines: a refused PROXY protocol header, at most one line a second.</summary>
internal sealed partial class TcpLog(ILogger logger)
{
    private LogGate _proxyHeaders;

    /// <summary>A connection to a route that accepts the PROXY protocol closed for its header: untrusted, invalid, cut or late.</summary>
    public void ProxyHeaderRefused(string route, string? client, string reason)
    {
        if (logger.IsEnabled(LogLevel.Information) && _proxyHeaders.TryPass(Environment.TickCount64, out var suppressed))
        {
            ProxyHeaderRefused(logger, route, client, reason, suppressed);
        }
    }

    [LoggerMessage(60, LogLevel.Information, "TCP route {Route} closed a connection from {Client} for its PROXY protocol header: {Reason} ({Suppressed} more since the last line)")]
    private static partial void ProxyHeaderRefused(ILogger logger, string route, string? client, string reason, int suppressed);
}
