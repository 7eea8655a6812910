using LLRP.Configuration;
using LLRP.Downstream;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Hosting;

namespace LLRP.Hosting;

/// <summary>Runs the bundled origin in-process when no <c>downstream</c> is configured, so the proxy answers at once.</summary>
internal sealed class EmbeddedDownstreamService(ProxyOptions options) : IHostedService, IAsyncDisposable
{
    private WebApplication? _origin;

    /// <summary>The addresses the origin listens on, once started.</summary>
    public IReadOnlyCollection<string> Addresses
        => _origin?.Urls.ToArray() ?? [];

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        // The origin listens on origin.urls alone: ASPNETCORE_HTTP_PORTS (set in .NET's container images) would only be overridden, with a warning.
        _origin = DownstreamHost.Build([$"--urls={options.OriginUrl}", "--http_ports=", "--https_ports="]);
        try
        {
            await _origin.StartAsync(cancellationToken);
        }
        catch (IOException e) when (e.InnerException is AddressInUseException)
        {
            throw ProxyHost.InUse(ConfigurationKeys.OriginUrls, options.OriginUrl);
        }
    }

    public Task StopAsync(CancellationToken cancellationToken)
        => _origin?.StopAsync(cancellationToken) ?? Task.CompletedTask;

    public async ValueTask DisposeAsync()
    {
        if (_origin is not null)
        {
            await _origin.DisposeAsync();
        }
    }
}
