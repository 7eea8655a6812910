using Microsoft.AspNetCore.Builder;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>A started in-process Kestrel application (the proxy or the bundled origin) on a loopback port.</summary>
public sealed class HostedApp : IAsyncDisposable
{
    private readonly WebApplication _app;

    private HostedApp(WebApplication app, int port)
    {
        _app = app;
        Port = port;
    }

    public int Port { get; }

    public string Url => $"http://127.0.0.1:{Port}";

    public string Authority => $"127.0.0.1:{Port}";

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

        return new HostedApp(app, new Uri(app.Urls.First()).Port);
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
