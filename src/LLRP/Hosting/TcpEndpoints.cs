using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Diagnostics.AccessLogging;
using LLRP.Tcp;
using LLRP.Tcp.Loop;
using LLRP.Tcp.Splice;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace LLRP.Hosting;

/// <summary>
/// Binds each TCP route's <c>Listen</c> address as a Kestrel endpoint of its own: no HTTP, no TLS, bytes as they come.
/// The addresses are bound once, at start-up. With splice (<see cref="Spliced"/>) the relay loops accept on them and
/// Kestrel never sees a connection (<see cref="LoopRouteListener"/>); else the connections go to the route's
/// <see cref="TcpConnectionHandler"/>, accepted by <see cref="TcpRouteListenerFactory"/> with <c>transport=epoll</c>
/// (whose connections give the relay no socket), else by Kestrel's sockets transport.
/// </summary>
internal static class TcpEndpoints
{
    /// <summary>Whether TCP routes relay with splice: <c>tcp.splice</c> on, on Linux.</summary>
    public static bool Spliced(ProxyOptions options) => options.TcpSplice && OperatingSystem.IsLinux();

    /// <summary>Whether the TCP routes' addresses are bound by <see cref="TcpRouteListenerFactory"/>.</summary>
    private static bool OwnListeners(ProxyOptions options) => Spliced(options) || options.Transport == TransportKind.Epoll;

    public static void Listen(KestrelServerOptions kestrel, ProxyOptions options, BoundListeners listeners)
    {
        if (options.Routing.TcpRoutes.Count == 0)
        {
            return;
        }

        var services = kestrel.ApplicationServices.GetRequiredService<TcpServices>();
        foreach (var route in options.Routing.TcpRoutes)
        {
            var connections = new TcpRouteConnections(route.Id, services);
            kestrel.Listen(OwnListeners(options) ? new TcpRouteEndPoint(route.Listen, connections) : route.Listen, listen =>
            {
                listeners.AddTcp(route.Id, listen);
                listen.Use(_ => new TcpConnectionHandler(connections).OnConnectedAsync);
            });
        }
    }

    /// <summary>What the TCP routes' connections share, registered when the configuration has TCP routes.</summary>
    public static void AddServices(IServiceCollection services, ProxyOptions options)
    {
        services.AddSingleton<TcpMetrics>();
        services.AddSingleton<TcpRelayTracker>();
        services.AddSingleton(provider => new TcpUpstreamConnector(provider.GetRequiredService<FailureLog>()));
        if (Spliced(options))
        {
            services.AddSingleton<RelayLoops>();
        }

        services.AddSingleton(provider => new TcpServices(
            provider.GetRequiredService<Routing.Router>(),
            new Routing.RoutingServices(provider.GetRequiredService<ProxyMetrics>(), provider.GetRequiredService<FailureLog>(), options.RetryUnsentAnyMethod),
            provider.GetRequiredService<TcpMetrics>(),
            provider.GetRequiredService<TcpUpstreamConnector>(),
            provider.GetRequiredService<TcpRelayTracker>(),
            options.AccessLog is null ? null : new TcpAccessLog(provider.GetRequiredService<AccessLogWriter>(), options.AccessLogFormat),
            new TcpLog(provider.GetRequiredService<ILoggerFactory>().CreateLogger("LLRP.Tcp")),
            new SplicePipePool()));
    }

    /// <summary>
    /// The TCP routes' transport when they have listeners of their own, registered after every other transport (Kestrel asks the
    /// last registered first), so that it alone binds the routes' addresses.
    /// </summary>
    public static void AddTransport(IServiceCollection services, ProxyOptions options)
    {
        if (options.Routing.TcpRoutes.Count > 0 && OwnListeners(options))
        {
            services.AddSingleton<IConnectionListenerFactory>(provider => new TcpRouteListenerFactory(provider.GetService<RelayLoops>(), options.ShutdownTimeout));
        }
    }
}
