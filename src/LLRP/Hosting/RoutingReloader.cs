using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Routing;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace LLRP.Hosting;

/// <summary>
/// Hot reload of routes and clusters: when the configuration reloads (appsettings.json changed on disk), the
/// <c>ReverseProxy</c> section (or <c>downstream</c> and the <c>destinations</c> section, with the top-level keys read at
/// start-up) is read and validated again and replaces the current table (<see cref="Router.Update"/>); open client
/// connections stay open and go on with the new table from their next batch. A configuration that does not read is
/// logged with its reason and changes nothing, as does a file that no longer reads (its file, line and reason are logged);
/// one whose routing values did not change is not applied again.
/// </summary>
internal sealed class RoutingReloader(IOptionsMonitor<ConfiguredRouting> monitor, Router router, SettingsReloadErrors fileErrors, ILogger<RoutingReloader> logger) : IHostedService, IDisposable
{
    /// <summary>The configuration sections the routing is read from.</summary>
    private static readonly string[] Sections = [ConfigurationKeys.ReverseProxySection.Name, ConfigurationKeys.Downstream, ConfigurationKeys.DestinationsSection.Name];

    private IDisposable? _subscription;
    private string _applied = "";
    private string? _fileError;

    /// <summary>Registers the reader of <see cref="ConfiguredRouting"/> over <paramref name="configuration"/>, re-run on each of its reloads.</summary>
    public static void Register(IServiceCollection services, IConfiguration configuration, ProxyOptions options)
    {
        services.AddSingleton<IOptionsChangeTokenSource<ConfiguredRouting>>(new ConfigurationChangeTokenSource<ConfiguredRouting>(configuration));
        services.AddSingleton<IConfigureOptions<ConfiguredRouting>>(new ConfigureOptions<ConfiguredRouting>(target =>
        {
            target.Snapshot = Snapshot(configuration);
            try
            {
                target.Routing = ProxyOptionsReader.ReadRouting(configuration, options);
                target.Error = null;
            }
            catch (ProxyConfigurationException e)
            {
                target.Routing = null;
                target.Error = e.Message;
            }
        }));
        services.AddHostedService<RoutingReloader>();
    }

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _applied = monitor.CurrentValue.Snapshot;
        _subscription = monitor.OnChange(Apply);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public void Dispose() => _subscription?.Dispose();

    private void Apply(ConfiguredRouting configured)
    {
        if (fileErrors.Take() is { } fileError)
        {
            // A file watcher may report one write twice: the same error is logged once.
            if (fileError != _fileError)
            {
                ProxyLog.RoutingReloadRefused(logger, fileError);
                _fileError = fileError;
            }

            return;
        }

        _fileError = null;

        if (configured.Snapshot == _applied)
        {
            return;
        }

        if (configured.Routing is not { } routing)
        {
            ProxyLog.RoutingReloadRefused(logger, configured.Error ?? "no routing");
            return;
        }

        if (TcpListenChange(routing) is { } change)
        {
            ProxyLog.RoutingReloadRefused(logger, change);
            return;
        }

        _applied = configured.Snapshot;
        ProxyLog.RoutingReloaded(logger, router.Update(routing));
    }

    /// <summary>
    /// Why <paramref name="routing"/> cannot be applied to the bound listeners: the TCP routes' addresses are bound at
    /// start-up, so a reload may change a TCP route's cluster and settings but not add or remove one or move its
    /// <c>Listen</c>; null when it does none of these.
    /// </summary>
    private string? TcpListenChange(RoutingOptions routing)
    {
        var bound = router.Current.TcpRoutes.Select(route => $"{route.Id}@{route.Options.Listen}").Order(StringComparer.Ordinal);
        var next = routing.TcpRoutes.Select(route => $"{route.Id}@{route.Listen}").Order(StringComparer.Ordinal);
        return bound.SequenceEqual(next)
            ? null
            : $"ReverseProxy:TcpRoutes: a reload may change a TCP route's ClusterId and settings, not add or remove a TCP route or change its Listen (bound at start-up: {string.Join(", ", bound)}; restart to bind {string.Join(", ", next)})";
    }

    private static string Snapshot(IConfiguration configuration)
        => string.Join('\n', Sections
            .SelectMany(section => configuration.GetSection(section).AsEnumerable())
            .OrderBy(pair => pair.Key, StringComparer.Ordinal)
            .Select(pair => $"{pair.Key}={pair.Value}"));
}
