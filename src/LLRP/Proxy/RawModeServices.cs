using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Upstream.Sockets;

namespace LLRP.Proxy;

/// <summary>What every raw-mode <see cref="ClientConnection"/> shares.</summary>
internal sealed class RawModeServices(
    ProxyOptions options,
    IUpstreamConnectionFactory connector,
    UpstreamConnectionPool? pool,
    ProxyMetrics metrics,
    ClientConnectionTracker tracker,
    FailureLog failureLog)
{
    public ProxyOptions Options { get; } = options;

    public IUpstreamConnectionFactory Connector { get; } = connector;

    /// <summary>The shared idle connections, or null for the per-client strategy.</summary>
    public UpstreamConnectionPool? Pool { get; } = pool;

    public ProxyMetrics Metrics { get; } = metrics;

    public ClientConnectionTracker Tracker { get; } = tracker;

    public FailureLog FailureLog { get; } = failureLog;
}
