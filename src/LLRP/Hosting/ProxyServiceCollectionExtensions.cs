using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Proxy;
using LLRP.Upstream.HttpClient;
using LLRP.Upstream.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace LLRP.Hosting;

internal static class ProxyServiceCollectionExtensions
{
    /// <summary>The services of the chosen mode.</summary>
    /// <exception cref="ProxyConfigurationException">The mode cannot run in this build (yarp).</exception>
    public static IServiceCollection AddProxyServices(this IServiceCollection services, ProxyOptions options)
    {
        services.AddMetrics();
        services.AddSingleton<ProxyMetrics>();
        services.AddSingleton<ClientConnectionTracker>();
        services.AddSingleton(provider => new FailureLog(provider.GetRequiredService<ILoggerFactory>().CreateLogger("LLRP.Proxy")));
        switch (options.Mode)
        {
            case ProxyMode.Raw:
                AddRawMode(services, options);
                break;
            case ProxyMode.HttpClient or ProxyMode.HttpClientWithContext:
                AddHttpClientModes(services, options);
                break;
            default:
                throw new ProxyConfigurationException(
                    "mode",
                    "yarp",
                    "raw, httpclient, httpclient-httpcontext; mode 'yarp' needs the Yarp.ReverseProxy package, which is not available in this build");
        }

        return services;
    }

    private static void AddRawMode(IServiceCollection services, ProxyOptions options)
    {
        services.AddSingleton<UpstreamConnector>();
        services.AddSingleton<UpstreamConnectionPool>();
        services.AddSingleton(provider => new RawModeServices(
            options,
            provider.GetRequiredService<UpstreamConnector>(),
            options.ConnectionStrategy == UpstreamConnectionStrategy.Pooled ? provider.GetRequiredService<UpstreamConnectionPool>() : null,
            provider.GetRequiredService<ProxyMetrics>(),
            provider.GetRequiredService<ClientConnectionTracker>(),
            provider.GetRequiredService<FailureLog>()));
    }

    private static void AddHttpClientModes(IServiceCollection services, ProxyOptions options)
    {
        services.AddSingleton<HttpClientInvokers>();
        services.AddSingleton(provider => new HttpClientModeServices(
            options,
            provider.GetRequiredService<HttpClientInvokers>(),
            provider.GetRequiredService<ProxyMetrics>(),
            provider.GetRequiredService<ClientConnectionTracker>(),
            provider.GetRequiredService<FailureLog>()));
    }
}
