using LLRP.Configuration;
using LLRP.Downstream;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Hosting;

namespace LLRP.Hosting;

/// <summary>Runs the bundled origin in-process when no <c>downstream</c> is configured, so the proxy answers at once.</summary>
internal sealed class EmbeddedDownstreamService : IHostedService, IAsyncDisposable
{
    private WebApplication? _origin;

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        _origin = DownstreamHost.Build([$"--urls={ProxyOptionsReader.EmbeddedDownstreamUrl}"]);
        await _origin.StartAsync(cancellationToken);
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
