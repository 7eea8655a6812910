using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Proxy;
using LLRP.Upstream.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace LLRP.Hosting;

internal static class ProxyServiceCollectionExtensions
{
    /// <summary>The services of the chosen mode.</summary>
    public static IServiceCollection AddProxyServices(this IServiceCollection services, ProxyOptions options)
    {
        services.AddMetrics();
        services.AddSingleton<ProxyMetrics>();
        services.AddSingleton<ClientConnectionTracker>();
        services.AddSingleton<UpstreamConnector>();
        services.AddSingleton<UpstreamConnectionPool>();
        services.AddSingleton(provider => new RawModeServices(
            options,
            provider.GetRequiredService<UpstreamConnector>(),
            options.ConnectionStrategy == UpstreamConnectionStrategy.Pooled ? provider.GetRequiredService<UpstreamConnectionPool>() : null,
            provider.GetRequiredService<ProxyMetrics>(),
            provider.GetRequiredService<ClientConnectionTracker>(),
            provider.GetRequiredService<ILoggerFactory>().CreateLogger("LLRP.Proxy")));
        return services;
    }
}
