using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Proxy;

namespace LLRP.Upstream.HttpClient;

/// <summary>What every client connection of the HttpClient modes shares.</summary>
internal sealed class HttpClientModeServices(
    ProxyOptions options,
    HttpClientInvokers invokers,
    ProxyMetrics metrics,
    ClientConnectionTracker tracker,
    FailureLog failureLog)
{
    public ProxyOptions Options { get; } = options;

    public HttpClientInvokers Invokers { get; } = invokers;

    public ProxyMetrics Metrics { get; } = metrics;

    public ClientConnectionTracker Tracker { get; } = tracker;

    public FailureLog FailureLog { get; } = failureLog;
}
