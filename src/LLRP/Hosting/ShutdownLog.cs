using System.Diagnostics;
using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Proxy;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace LLRP.Hosting;

/// <summary>
/// Says what a stop (SIGTERM) does: how many client connections drain when it begins, how many are aborted with their
/// requests when <c>shutdownTimeoutMs</c> passes, and when the proxy has stopped and exits.
/// </summary>
internal sealed class ShutdownLog(ClientConnectionTracker connections, ProxyOptions options, IHostApplicationLifetime lifetime, ILogger<ShutdownLog> logger)
    : IHostedService, IDisposable
{
    private readonly Stopwatch _clock = new();
    private CancellationTokenRegistration _stopping;
    private CancellationTokenRegistration _stopped;
    private Timer? _timeout;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _stopping = lifetime.ApplicationStopping.Register(OnStopping);
        _stopped = lifetime.ApplicationStopped.Register(() => ProxyLog.Stopped(logger, _clock.ElapsedMilliseconds));
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    private void OnStopping()
    {
        _clock.Start();
        ProxyLog.Draining(logger, connections.Count, TimeoutMs);
        _timeout = new Timer(_ => OnTimeout(), null, options.ShutdownTimeout, Timeout.InfiniteTimeSpan);
    }

    private void OnTimeout()
    {
        if (connections.Count is > 0 and var open)
        {
            ProxyLog.AbortingAtShutdownTimeout(logger, open, TimeoutMs);
        }
    }

    private long TimeoutMs => (long)options.ShutdownTimeout.TotalMilliseconds;

    public void Dispose()
    {
        _stopping.Dispose();
        _stopped.Dispose();
        _timeout?.Dispose();
    }
}
