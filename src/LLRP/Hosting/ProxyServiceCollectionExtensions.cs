using LLRP.Configuration;
using LLRP.Upstream.Sockets;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.Hosting;

internal static class ProxyServiceCollectionExtensions
{
    /// <summary>The services of the chosen mode.</summary>
    public static IServiceCollection AddProxyServices(this IServiceCollection services, ProxyOptions options)
    {
        services.AddSingleton<UpstreamConnector>();
        services.AddSingleton<UpstreamConnectionPool>();
        return services;
    }
}
