using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Diagnostics.AccessLogging;
using LLRP.Http2;
using LLRP.Http2.Server;
using LLRP.Proxy;
using LLRP.Upstream;
using LLRP.Routing;
using LLRP.Upstream.Http2Client;
using LLRP.Upstream.HttpClient;
using LLRP.Upstream.LightContext;
using LLRP.Upstream.Sockets;
using LLRP.Upstream.Yarp;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace LLRP.Hosting;

internal static class ProxyServiceCollectionExtensions
{
    /// <summary>The client sessions every mode shares, and the forwarders of the chosen mode.</summary>
    public static IServiceCollection AddProxyServices(this IServiceCollection services, ProxyOptions options)
    {
        services.AddMetrics();
        services.AddSingleton<ProxyMetrics>();
        services.AddSingleton<ClientConnectionTracker>();
        services.AddSingleton(provider => new FailureLog(provider.GetRequiredService<ILoggerFactory>().CreateLogger("LLRP.Proxy")));
        services.AddSingleton<DestinationCertificateCheck>();
        services.AddSingleton<ProxyHeaderRefusals>();
        services.AddSingleton(provider => new Router(options.Routing, provider.GetRequiredService<ProxyMetrics>()));
        services.AddSingleton<ClientSessionServices>();
        if (options.AccessLog is { } accessLog)
        {
            services.AddSingleton(provider => new AccessLogWriter(
                accessLog,
                options.AccessLogBufferSize,
                provider.GetRequiredService<ProxyMetrics>(),
                provider.GetRequiredService<ILoggerFactory>().CreateLogger("LLRP.AccessLog")));
            services.AddHostedService(provider => provider.GetRequiredService<AccessLogWriter>());
        }

        services.AddHostedService<ActiveHealthProber>();

        // The HttpClient end of HTTP/2 clients' requests and, in raw mode, of HTTP/1.1 clients' requests to clusters that
        // ask HTTP/2: one, so that one connection to a destination carries both.
        services.AddSingleton(provider => HttpClientInvokers.Create(options, provider.GetRequiredService<ProxyMetrics>(), provider.GetRequiredService<DestinationCertificateCheck>()));
        services.AddSingleton(provider => new Http2FrontEnd(
            options,
            provider.GetRequiredService<Router>(),
            provider.GetRequiredService<ProxyMetrics>(),
            provider.GetRequiredService<FailureLog>(),
            provider.GetRequiredService<HttpMessageInvoker>(),
            provider.GetService<AccessLogWriter>(),
            PooledStreamExchanges(provider, options),
            Http2StreamExchanges(provider, options)));
        services.AddSingleton<Http2Server>();

        if (options.Mode == ProxyMode.Raw)
        {
            services.AddSingleton<UpstreamConnector>();
            services.AddSingleton<UpstreamConnectionPool>();
            services.AddSingleton<EpollUpstreamConnector>();
            services.AddSingleton<IForwarderFactory>(provider => new SocketsForwarderFactory(
                options,
                Connector(provider, options),
                options.ConnectionStrategy == UpstreamConnectionStrategy.Pooled ? provider.GetRequiredService<UpstreamConnectionPool>() : null));
            services.AddSingleton(provider => new Http2ClusterForwarderFactory(options, provider.GetRequiredService<HttpMessageInvoker>()));
            services.AddSingleton(provider => new Http2ClientPool(
                Connector(provider, options),
                provider.GetRequiredService<UpstreamConnector>(),
                provider.GetRequiredService<FailureLog>(),
                options.MaxResponseHeadersTotalSize,
                options.ConnectTimeout,
                options.PooledConnectionIdleTimeout));
            return services;
        }

        services.AddSingleton<HttpClientInvokers>();
        switch (options.Mode)
        {
            case ProxyMode.HttpClient or ProxyMode.HttpClientWithContext:
                services.AddSingleton<IForwarderFactory, HttpClientForwarderFactory>();
                break;
            default:
                services.AddHttpForwarder();
                services.AddSingleton<IForwarderFactory, YarpForwarderFactory>();
                break;
        }

        return services;
    }

    /// <summary>Raw mode's upstream connector: over LLRP's epoll transport or over sockets.</summary>
    private static IUpstreamConnectionFactory Connector(IServiceProvider provider, ProxyOptions options)
        => options.Transport == TransportKind.Epoll ? provider.GetRequiredService<EpollUpstreamConnector>() : provider.GetRequiredService<UpstreamConnector>();

    /// <summary>
    /// In raw mode with <c>http2.client</c> <c>llrp</c>, what makes each HTTP/2 stream's exchange over raw mode's own
    /// HTTP/2 client, all of them over one pool of connections; null otherwise (HttpClient carries HTTP/2 to destinations).
    /// </summary>
    private static Func<Http2StreamExchange>? Http2StreamExchanges(IServiceProvider provider, ProxyOptions options)
    {
        if (options.Mode != ProxyMode.Raw || options.Http2Client != Http2ClientKind.Llrp)
        {
            return null;
        }

        var pool = provider.GetRequiredService<Http2ClientPool>();
        return () => new Http2StreamExchange(pool, options.MaxResponseHeadersTotalSize);
    }

    /// <summary>
    /// In raw mode, what makes each HTTP/2 stream's exchange over raw mode's own client: over the shared pool with pooled
    /// connections (HTTP/2 streams to HTTP/1.1 clusters), and with either strategy on connections of a stream's own to the
    /// destinations sending the PROXY protocol; null in the other modes (HttpClient carries them all).
    /// </summary>
    private static Func<PooledStreamExchange>? PooledStreamExchanges(IServiceProvider provider, ProxyOptions options)
    {
        if (options.Mode != ProxyMode.Raw)
        {
            return null;
        }

        var connector = Connector(provider, options);
        var pool = PooledStreamExchange.Serves(options) ? provider.GetRequiredService<UpstreamConnectionPool>() : null;
        var chunkLimits = SocketsForwarderFactory.ResponseBodyLimitsOf(options);
        return () => new PooledStreamExchange(new UpstreamSession(connector, pool, client: null, local: null), options.MaxResponseHeadersTotalSize, chunkLimits, options.PipelineDepth);
    }
}
