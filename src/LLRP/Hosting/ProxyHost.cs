using LLRP.Configuration;
using LLRP.Proxy;
using LLRP.Tasks;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace LLRP.Hosting;

/// <summary>
/// Builds the proxy: Kestrel's sockets transport with <see cref="ProxyConnectionHandler"/> on every endpoint of
/// <c>urls</c> (<see cref="ProxyEndpoints"/>), the admin listener when configured (<see cref="AdminEndpoints"/>), and the
/// hot reload of routes and clusters (<see cref="RoutingReloader"/>).
/// </summary>
public static class ProxyHost
{
    private const string InlineCompletionsVariable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";

    /// <summary>Builds (does not start) the proxy from command-line arguments and environment variables.</summary>
    /// <exception cref="ProxyConfigurationException">A configuration value is invalid.</exception>
    public static WebApplication Build(string[] args)
    {
        var builder = WebApplication.CreateSlimBuilder(args);
        var options = ProxyOptionsReader.Read(builder.Configuration);

        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.Logging.AddFilter("LLRP", LogLevel.Information);
        builder.Services.AddSingleton(options);
        builder.Services.Configure<HostOptions>(host => host.ShutdownTimeout = options.ShutdownTimeout);
        if (options.EmbeddedDownstream)
        {
            builder.Services.AddSingleton<EmbeddedDownstreamService>();
            builder.Services.AddHostedService(provider => provider.GetRequiredService<EmbeddedDownstreamService>());
        }

        builder.Services.AddProxyServices(options);
        RoutingReloader.Register(builder.Services, builder.Configuration, options);
        if (options.AdminUrls is not null)
        {
            AdminEndpoints.AddServices(builder.Services);
        }

        // .NET's socket engine reads this once, when the process's first asynchronous socket operation starts; the
        // listener has not started yet, so in `dotnet LLRP.dll` it takes effect (in a process that used sockets before,
        // such as a test host, the engine keeps what it read then).
        Environment.SetEnvironmentVariable(InlineCompletionsVariable, options.InlineCompletions ? "1" : "0");
        BoxPool.Enabled = options.TasksPooling;
        builder.WebHost.UseSockets(sockets =>
        {
            // An idle client connection holds no receive buffer: each read first waits for data with a zero-byte read.
            sockets.WaitForDataBeforeAllocatingBuffer = true;
            sockets.UnsafePreferInlineScheduling = options.InlineScheduling;
            if (options.ThreadCount is { } threads)
            {
                sockets.IOQueueCount = threads;
            }
        });
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.AddServerHeader = false;
            ProxyEndpoints.Listen(kestrel, options);
            if (options.AdminUrls is not null)
            {
                AdminEndpoints.Listen(kestrel, options.AdminUrls);
            }
        });

        var app = builder.Build();
        if (options.AdminUrls is not null)
        {
            AdminEndpoints.Map(app);
        }

        return app;
    }
}
