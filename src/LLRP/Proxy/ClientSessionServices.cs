using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Upstream;

namespace LLRP.Proxy;

/// <summary>What every client session shares: the limits and timeouts as plain values, the mode's forwarders, diagnostics.</summary>
internal sealed class ClientSessionServices(
    ProxyOptions options,
    IForwarderFactory forwarders,
    ProxyMetrics metrics,
    ClientConnectionTracker tracker,
    FailureLog failureLog)
{
    public RequestLimits Limits { get; } = RequestLimitsOf(options);

    /// <summary>Limits of request bodies read as they come; chunked trailers are bounded like a header section.</summary>
    public BodyLimits BodyLimits { get; } = new(options.MaxRequestBodySize, options.MaxChunkLineSize, options.MaxRequestHeadersTotalSize);

    public RewriteSettings Rewrite { get; } = RewriteSettingsOf(options);

    public long KeepAliveTimeoutMs { get; } = (long)options.KeepAliveTimeout.TotalMilliseconds;

    public long RequestHeadersTimeoutMs { get; } = (long)options.RequestHeadersTimeout.TotalMilliseconds;

    public long TunnelIdleTimeoutMs { get; } = (long)options.TunnelIdleTimeout.TotalMilliseconds;

    /// <summary>The protocols an upgrade may switch to through the proxy.</summary>
    public UpgradeProtocols Upgrades { get; } = new(options.UpgradeProtocols);

    public IReadOnlyList<DownstreamEndpoint> Downstreams { get; } = options.Downstreams;

    public IForwarderFactory Forwarders { get; } = forwarders;

    public ProxyMetrics Metrics { get; } = metrics;

    public ClientConnectionTracker Tracker { get; } = tracker;

    public FailureLog FailureLog { get; } = failureLog;

    public static RequestLimits RequestLimitsOf(ProxyOptions options)
        => new(options.MaxRequestLineSize, options.MaxRequestHeadersTotalSize, options.MaxRequestHeaderCount);

    public static RewriteSettings RewriteSettingsOf(ProxyOptions options)
        => new(options.PreserveHost, options.ForwardedHeaders, options.AddVia);
}
