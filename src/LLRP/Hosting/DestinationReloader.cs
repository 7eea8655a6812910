using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Upstream.Destinations;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace LLRP.Hosting;

/// <summary>
/// Hot reload of the destinations: when the configuration reloads (appsettings.json changed on disk), the destinations
/// of <c>downstream</c> or the <c>destinations</c> section are read and validated again and replace the current set
/// (<see cref="DestinationRegistry.Update"/>); open client connections stay open and go on with the new set from their
/// next request. A configuration whose destinations are invalid or missing is logged and changes nothing.
/// </summary>
internal sealed class DestinationReloader(IOptionsMonitor<ConfiguredDestinations> monitor, DestinationRegistry registry, ILogger<DestinationReloader> logger) : IHostedService, IDisposable
{
    private IDisposable? _subscription;

    /// <summary>Registers the reader of <see cref="ConfiguredDestinations"/> over <paramref name="configuration"/>, re-run on each of its reloads.</summary>
    public static void Register(IServiceCollection services, IConfiguration configuration, BalancingPolicy balancing)
    {
        services.AddSingleton<IOptionsChangeTokenSource<ConfiguredDestinations>>(new ConfigurationChangeTokenSource<ConfiguredDestinations>(configuration));
        services.AddSingleton<IConfigureOptions<ConfiguredDestinations>>(new ConfigureOptions<ConfiguredDestinations>(target =>
        {
            try
            {
                target.Destinations = ProxyOptionsReader.ReadDestinations(configuration, balancing);
                target.Error = target.Destinations is null ? $"neither {ConfigurationKeys.Downstream} nor a {ConfigurationKeys.DestinationsSection.Name} section is configured" : null;
            }
            catch (ProxyConfigurationException e)
            {
                target.Error = e.Message;
            }
        }));
        services.AddHostedService<DestinationReloader>();
    }

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _subscription = monitor.OnChange(Apply);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public void Dispose() => _subscription?.Dispose();

    private void Apply(ConfiguredDestinations configured)
    {
        if (configured.Destinations is not { } destinations)
        {
            ProxyLog.DestinationsReloadRefused(logger, configured.Error ?? "no destinations");
            return;
        }

        if (registry.Update(destinations))
        {
            ProxyLog.DestinationsReloaded(logger, string.Join(';', destinations.Select(d => $"{d.Endpoint}|w={d.Weight}")));
        }
    }
}
