using System.Collections.Concurrent;
using LLRP.Tasks;
using Microsoft.Extensions.Hosting;

namespace LLRP.Proxy;

/// <summary>
/// A heartbeat over all client connections, as Kestrel does for its own: once a second it expires the connections
/// whose deadline passed, so the request path only writes a number; started by the first connection (a proxy of TCP
/// routes alone has none). On shutdown it asks every connection to drain.
/// </summary>
internal sealed class ClientConnectionTracker : IDisposable
{
    private readonly ConcurrentDictionary<ITrackedConnection, byte> _connections = new();
    private readonly OnDemandHeartbeat _heartbeat;
    private readonly CancellationTokenRegistration _stoppingRegistration;
    private volatile bool _stopping;

    public ClientConnectionTracker(IHostApplicationLifetime lifetime)
    {
        _heartbeat = new OnDemandHeartbeat(static state => ((ClientConnectionTracker)state!).ExpireDeadlines(), this);
        _stoppingRegistration = lifetime.ApplicationStopping.Register(static state => ((ClientConnectionTracker)state!).StopAll(), this);
    }

    /// <summary>The client connections open now.</summary>
    public int Count => _connections.Count;

    public void Add(ITrackedConnection connection)
    {
        _connections.TryAdd(connection, 0);
        _heartbeat.Start();
        if (_stopping)
        {
            connection.OnStopping();
        }
    }

    public void Remove(ITrackedConnection connection) => _connections.TryRemove(connection, out _);

    private void ExpireDeadlines()
    {
        var now = Environment.TickCount64;
        foreach (var connection in _connections.Keys)
        {
            connection.OnHeartbeat(now);
        }
    }

    private void StopAll()
    {
        _stopping = true;
        foreach (var connection in _connections.Keys)
        {
            connection.OnStopping();
        }
    }

    public void Dispose()
    {
        _heartbeat.Dispose();
        _stoppingRegistration.Dispose();
    }
}
