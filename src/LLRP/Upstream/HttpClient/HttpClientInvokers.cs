using System.Net;
using System.Text;
using LLRP.Configuration;
using LLRP.Diagnostics;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Creates the <see cref="HttpMessageInvoker"/>s of the HttpClient modes, keyed exactly as the prototype:
/// <c>shareClients=false</c> gives every client connection its own invoker (its own connection pool, disposed with it);
/// <c>shareClients=true</c> creates <c>shareClients.count</c> invokers up front, shared by all connections.
/// </summary>
internal sealed class HttpClientInvokers : IDisposable
{
    private readonly ProxyOptions _options;
    private readonly ProxyMetrics _metrics;
    private readonly DestinationCertificateCheck _check;
    private readonly HttpMessageInvoker[] _shared;
    private uint _nextShared;

    public HttpClientInvokers(ProxyOptions options, ProxyMetrics metrics, DestinationCertificateCheck check)
    {
        _options = options;
        _metrics = metrics;
        _check = check;
        _shared = options.ShareClients
            ? Enumerable.Range(0, options.ShareClientsCount).Select(_ => Create(options, metrics, check)).ToArray()
            : [];
    }

    /// <summary>The invokers one client connection uses: its own, or the shared ones starting at the next index (round-robin per connection).</summary>
    public InvokerSelector ForConnection()
    {
        if (_shared.Length == 0)
        {
            return InvokerSelector.Owned(Create(_options, _metrics, _check));
        }

        var first = (int)((Interlocked.Increment(ref _nextShared) - 1) % (uint)_shared.Length);
        return InvokerSelector.Shared(_shared, first, _options.ShareClientsRoundRobin);
    }

    /// <summary>
    /// One invoker over <see cref="SocketsHttpHandler"/> configured as a transparent HTTP/1.1 client: no proxy, redirects,
    /// decompression, cookies or trace headers; header values pass byte for byte (Latin-1 both ways); an <c>https</c>
    /// destination is authenticated as in raw mode (<see cref="DestinationTls"/>). A response abandoned
    /// before its end (a client gone, a framing anomaly) closes its connection instead of draining it for reuse. Idle
    /// connections are closed after <c>pool.idleTimeoutMs</c>, as raw mode's pooled ones are: one the destination closed
    /// meanwhile is found at the handler's next sweep, every quarter of that. Connections are counted in
    /// <c>llrp.upstream.active_connections</c>.
    /// </summary>
    public static HttpMessageInvoker Create(ProxyOptions options, ProxyMetrics metrics, DestinationCertificateCheck check) => new(new SocketsHttpHandler
    {
        UseProxy = false,
        AllowAutoRedirect = false,
        AutomaticDecompression = DecompressionMethods.None,
        UseCookies = false,
        ActivityHeadersPropagator = null,
        ConnectTimeout = options.ConnectTimeout,
        PooledConnectionIdleTimeout = options.PooledConnectionIdleTimeout,
        SslOptions = DestinationTls.HandlerOptions(options.DownstreamInsecure, check),
        MaxResponseHeadersLength = (options.MaxResponseHeadersTotalSize + 1023) / 1024,
        RequestHeaderEncodingSelector = static (_, _) => Encoding.Latin1,
        MaxResponseDrainSize = 0,
        EnableMultipleHttp2Connections = options.EnableMultipleHttp2Connections,
        ConnectCallback = (context, cancellationToken) => CountedNetworkStream.ConnectAsync(context, metrics, cancellationToken),
    });

    public void Dispose()
    {
        foreach (var invoker in _shared)
        {
            invoker.Dispose();
        }
    }
}
