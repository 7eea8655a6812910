using System.Collections.Concurrent;
using LLRP.Configuration;
using Microsoft.Extensions.Hosting;

namespace LLRP.Tcp;

/// <summary>
/// The open relays, watched as Kestrel watches its own connections: once a second the heartbeat closes those idle past
/// their route's <c>IdleTimeout</c>, so that the relay loops only write the time of their last transfer. When the proxy
/// stops, Kestrel stops accepting and the relays go on until <c>shutdownTimeoutMs</c> has passed; those still open then
/// are closed.
/// </summary>
internal sealed class TcpRelayTracker : IDisposable
{
    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    private readonly ConcurrentDictionary<TcpRelay, byte> _relays = new();
    private readonly Timer _heartbeat;
    private readonly Timer _shutdown;
    private readonly CancellationTokenRegistration _stopping;

    public TcpRelayTracker(IHostApplicationLifetime lifetime, ProxyOptions options)
    {
        _heartbeat = new Timer(static state => ((TcpRelayTracker)state!).ExpireIdle(), this, Interval, Interval);
        _shutdown = new Timer(static state => ((TcpRelayTracker)state!).AbortAll(), this, Timeout.Infinite, Timeout.Infinite);
        _stopping = lifetime.ApplicationStopping.Register(() => _shutdown.Change(options.ShutdownTimeout, Timeout.InfiniteTimeSpan));
    }

    /// <summary>The relays open now.</summary>
    public int Count => _relays.Count;

    public void Add(TcpRelay relay) => _relays.TryAdd(relay, 0);

    public void Remove(TcpRelay relay) => _relays.TryRemove(relay, out _);

    public void Dispose()
    {
        _stopping.Dispose();
        _heartbeat.Dispose();
        _shutdown.Dispose();
    }

    private void ExpireIdle()
    {
        var now = Environment.TickCount64;
        foreach (var relay in _relays.Keys)
        {
            relay.OnHeartbeat(now);
        }
    }

    private void AbortAll()
    {
        foreach (var relay in _relays.Keys)
        {
            relay.Stop(TcpRelayEnd.Aborted);
        }
    }
}
