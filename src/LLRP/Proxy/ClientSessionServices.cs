using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Diagnostics.AccessLogging;
using LLRP.Http1;
using LLRP.Upstream;
using LLRP.Upstream.HttpClient;
using LLRP.Routing;

namespace LLRP.Proxy;

/// <summary>What every client session shares: the limits and timeouts as plain values, the mode's forwarders, diagnostics.</summary>
internal sealed class ClientSessionServices(
    ProxyOptions options,
    IForwarderFactory forwarders,
    ProxyMetrics metrics,
    ClientConnectionTracker tracker,
    FailureLog failureLog,
    Router router,
    AccessLogWriter? accessLog = null,
    Http2ClusterForwarderFactory? http2ClusterForwarders = null)
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

    /// <summary>The current routes and clusters.</summary>
    public Router Router { get; } = router;

    /// <summary>What every connection's routing shares.</summary>
    public RoutingServices Routing { get; } = new(metrics, failureLog, options.RetryUnsentAnyMethod);

    /// <summary>Most open client connections (<c>limits.maxClientConnections</c>); 0 = unlimited.</summary>
    public int MaxClientConnections { get; } = options.MaxClientConnections;

    public IForwarderFactory Forwarders { get; } = forwarders;

    /// <summary>
    /// In raw mode, the forwarders of HTTP/1.1 clients' requests to the clusters it leaves to HttpClient
    /// (<see cref="Cluster.OverHttpClient"/>); null in the other modes, whose forwarders carry every cluster.
    /// </summary>
    public Http2ClusterForwarderFactory? Http2ClusterForwarders { get; } = http2ClusterForwarders;

    public ProxyMetrics Metrics { get; } = metrics;

    public ClientConnectionTracker Tracker { get; } = tracker;

    public FailureLog FailureLog { get; } = failureLog;

    /// <summary>Where the access log's lines go; null when it is off.</summary>
    public AccessLogWriter? AccessLog { get; } = accessLog;

    public AccessLogFormat AccessLogFormat { get; } = options.AccessLogFormat;

    public static RequestLimits RequestLimitsOf(ProxyOptions options)
        => new(options.MaxRequestLineSize, options.MaxRequestHeadersTotalSize, options.MaxRequestHeaderCount);

    public static RewriteSettings RewriteSettingsOf(ProxyOptions options)
        => new(options.PreserveHost, options.ForwardedHeaders, options.AddVia);
}
