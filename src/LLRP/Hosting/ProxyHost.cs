using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Diagnostics.AccessLogging;
using LLRP.Downstream;
using LLRP.Proxy;
using LLRP.Tasks;
using Microsoft.Extensions.Configuration;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Connections;
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

    /// <summary>The category the generic host logs a failed start under.</summary>
    private const string HostCategory = "Microsoft.Extensions.Hosting.Internal.Host";

    /// <summary>Builds (does not start) the proxy from command-line arguments and environment variables.</summary>
    /// <exception cref="ProxyConfigurationException">A configuration value is invalid.</exception>
    public static WebApplication Build(string[] args)
    {
        WebApplicationBuilder builder;
        try
        {
            // SettingsFileWatcher, below, watches the settings files for hot reload in the host's place.
            builder = WebApplication.CreateSlimBuilder(HostSettingsWatch.Off(args));
        }
        catch (InvalidDataException e)
        {
            throw ProxyConfigurationException.UnreadableFile("appsettings.json", SettingsFileError.Describe(e));
        }

        var options = ProxyOptionsReader.Read(builder.Configuration);
        var reloadErrors = new SettingsReloadErrors();
        foreach (var file in ((IConfigurationBuilder)builder.Configuration).Sources.OfType<FileConfigurationSource>())
        {
            // Read at start-up already: from now on a file that does not read is a reload's, reported and skipped.
            file.OnLoadException = context =>
            {
                reloadErrors.Report(context.Exception is InvalidDataException error ? SettingsFileError.Describe(error) : context.Exception.Message);
                context.Ignore = true;
            };
        }

        builder.Services.AddSingleton(reloadErrors);
        var settingsFiles = SettingsFileWatcher.FilesOf(builder.Configuration);
        builder.Services.AddHostedService(provider => new SettingsFileWatcher(builder.Configuration, settingsFiles, provider.GetRequiredService<ILogger<SettingsFileWatcher>>()));
        var unknownKeys = UnknownKeys.Find(builder.Configuration).ToList();

        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.Logging.AddFilter("LLRP", LogLevel.Information);
        builder.Services.AddSingleton(options);
        var listeners = new BoundListeners();
        builder.Services.AddSingleton(listeners);
        builder.Services.Configure<HostOptions>(host => host.ShutdownTimeout = options.ShutdownTimeout);
        if (options.EmbeddedDownstream)
        {
            builder.Services.AddSingleton<EmbeddedDownstreamService>();
            builder.Services.AddHostedService(provider => provider.GetRequiredService<EmbeddedDownstreamService>());
        }

        builder.Services.AddProxyServices(options);
        if (options.Routing.TcpRoutes.Count > 0)
        {
            TcpEndpoints.AddServices(builder.Services, options);
        }

        builder.Services.AddHostedService<ShutdownLog>();
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
        TransportServices.Add(builder.Services, options);
        TcpEndpoints.AddTransport(builder.Services, options);
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.AddServerHeader = false;
            KestrelLimits.Apply(kestrel.Limits, options);
            ProxyEndpoints.Listen(kestrel, options, listeners);
            TcpEndpoints.Listen(kestrel, options, listeners);
            if (options.AdminUrls is not null)
            {
                AdminEndpoints.Listen(kestrel, options.AdminUrls, listeners);
            }
        });

        // Kestrel binds what ProxyEndpoints and AdminEndpoints listen on. The host would also hand Kestrel the addresses of
        // `urls` (read above as LLRP's own key) or of ASPNETCORE_HTTP_PORTS (set in .NET's container images), which
        // Kestrel then overrides with a warning; an address list with no address in it takes their place (the host falls
        // back to the `urls` it read at start-up only when this is empty).
        builder.WebHost.UseSetting(WebHostDefaults.ServerUrlsKey, ";");
        builder.WebHost.UseSetting(WebHostDefaults.HttpPortsKey, string.Empty);
        builder.WebHost.UseSetting(WebHostDefaults.HttpsPortsKey, string.Empty);

        // A failed start is reported once, as one line naming the key (StartAsync); the host would log it again with its stack trace.
        builder.Logging.AddFilter(HostCategory, LogLevel.Critical);

        var app = builder.Build();
        if (options.AccessLog is { } accessLog)
        {
            OpenAccessLog(app, accessLog);
        }

        var configurationLog = app.Services.GetRequiredService<ILogger<ProxyOptions>>();
        foreach (var (key, source, nearest) in unknownKeys)
        {
            ProxyLog.UnknownKey(configurationLog, key, source, nearest);
        }

        Http2Pipeline.Use(app);
        if (options.AdminUrls is not null)
        {
            AdminEndpoints.Map(app);
        }

        return app;
    }

    /// <summary>Starts a proxy built by <see cref="Build"/>.</summary>
    /// <exception cref="ProxyConfigurationException">An address of <c>urls</c>, <c>admin.urls</c> or a TCP route's <c>Listen</c> is in use.</exception>
    public static async Task StartAsync(WebApplication app)
    {
        try
        {
            await app.StartAsync();
        }
        catch (IOException e) when (e.InnerException is AddressInUseException)
        {
            var options = app.Services.GetRequiredService<ProxyOptions>();
            throw TakenAddresses.First(options.Urls) is { } url ? InUse(ConfigurationKeys.Urls, url)
                : TakenAddresses.First(options.AdminUrls) is { } admin ? InUse(ConfigurationKeys.AdminUrls, admin)
                : TakenAddresses.FirstTcpRoute(options.Routing.TcpRoutes) is { } route ? InUse(TcpRouteListenKey(route.Id), route.Listen.ToString())
                : new ProxyConfigurationException($"{ConfigurationKeys.Urls} or {ConfigurationKeys.AdminUrls}", $"{options.Urls} and {options.AdminUrls}", $"addresses no other socket holds and each bound once ({e.Message})");
        }
    }

    /// <summary>Makes the access log's writer, which opens its sink, so that a file that cannot be opened ends the start with one line.</summary>
    private static void OpenAccessLog(WebApplication app, string accessLog)
    {
        try
        {
            app.Services.GetRequiredService<AccessLogWriter>();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new ProxyConfigurationException(ConfigurationKeys.AccessLog, accessLog, $"a file LLRP may append to ({e.Message})");
        }
    }

    /// <summary>The key of TCP route <paramref name="id"/>'s listen address, as an error names it.</summary>
    private static string TcpRouteListenKey(string id)
        => $"{ConfigurationKeys.ReverseProxySection.Name}:{ConfigurationKeys.ReverseProxySection.TcpRoutes}:{id}:Listen";

    /// <summary>The error for <paramref name="url"/> of <paramref name="key"/>, whose address another socket holds.</summary>
    public static ProxyConfigurationException InUse(string key, string url)
        => new(key, url, "an address no other socket listens on: this one is in use (another LLRP or server still running?); choose another port, or stop what holds it (ss -ltnp)");
}
