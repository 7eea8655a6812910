using Microsoft.AspNetCore.Builder;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>A started in-process Kestrel application (the proxy or the bundled origin) on a loopback port.</summary>
public sealed class HostedApp : IAsyncDisposable
{
    private readonly WebApplication _app;

    private HostedApp(WebApplication app, Uri address)
    {
        _app = app;
        Port = address.Port;
        Scheme = address.Scheme;
    }

    public int Port { get; }

    /// <summary><c>http</c>, or <c>https</c> when the application's first address is https.</summary>
    public string Scheme { get; }

    public string Url => $"{Scheme}://127.0.0.1:{Port}";

    public string Authority => $"127.0.0.1:{Port}";

    /// <summary>Every address the application listens on.</summary>
    public IReadOnlyCollection<string> Addresses => [.. _app.Urls];

    /// <summary>The application's services, to reach what it registered (its meter factory, for one).</summary>
    public IServiceProvider Services => _app.Services;

    public static async Task<HostedApp> StartAsync(WebApplication app)
    {
        try
        {
            await app.StartAsync().WaitAsync(Deadline.Io);
        }
        catch
        {
            await app.DisposeAsync();
            throw;
        }

        return new HostedApp(app, new Uri(app.Urls.First()));
    }

    public Task<RawHttpClient> ConnectAsync() => RawHttpClient.ConnectAsync(Port);

    /// <summary>Stops the application as a SIGTERM would, draining within its configured shutdown timeout or <paramref name="token"/>.</summary>
    public Task StopAsync(CancellationToken token) => _app.StopAsync(token);

    public async ValueTask DisposeAsync()
    {
        using (var stopping = new CancellationTokenSource(Deadline.Stop))
        {
            await _app.StopAsync(stopping.Token);
        }

        await _app.DisposeAsync();
    }
}
