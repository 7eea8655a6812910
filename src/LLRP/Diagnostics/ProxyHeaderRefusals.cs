using System.Diagnostics.Metrics;
using System.Net;
using Microsoft.Extensions.Logging;

namespace LLRP.Diagnostics;

/// <summary>
/// Connections to the proxy's urls closed for their PROXY protocol header (<c>proxyProtocol.accept</c>): counted on
/// <c>llrp.client.proxy_header_refused</c> by reason (the TCP routes' reasons: <c>proxy_header_untrusted</c>,
/// <c>_invalid</c>, <c>_truncated</c>, <c>_timeout</c>), and logged at most once a second.
/// </summary>
internal sealed partial class ProxyHeaderRefusals
{
    private readonly Counter<long> _refused;
    private readonly ILogger _logger;
    private LogGate _gate;

    public ProxyHeaderRefusals(ProxyMetrics metrics, ILoggerFactory loggers)
    {
        _refused = metrics.Meter.CreateCounter<long>("llrp.client.proxy_header_refused", "{connection}", "Client connections closed before TLS and HTTP for their PROXY protocol header, by reason: untrusted, invalid, truncated, timeout.");
        _logger = loggers.CreateLogger("LLRP.Proxy");
    }

    /// <param name="client">The connection's own address (the header's was not taken).</param>
    /// <param name="reason">The reason tag.</param>
    /// <param name="detail">What was wrong, for the log.</param>
    public void Refused(EndPoint? client, string reason, string detail)
    {
        _refused.Add(1, new KeyValuePair<string, object?>("reason", reason));
        if (_logger.IsEnabled(LogLevel.Information) && _gate.TryPass(Environment.TickCount64, out var suppressed))
        {
            Refused(_logger, client?.ToString(), reason, detail, suppressed);
        }
    }

    [LoggerMessage(61, LogLevel.Information, "Closed a client connection from {Client} for its PROXY protocol header: {Reason}, {Detail} ({Suppressed} more since the last line)")]
    private static partial void Refused(ILogger logger, string? client, string reason, string detail, int suppressed);
}
