using System.Collections.Concurrent;
using LLRP.Tasks;

namespace LLRP.Tcp;

/// <summary>
/// The open relays, watched as Kestrel watches its own connections: once a second the heartbeat closes those idle past
/// their route's <c>IdleTimeout</c>, so that the relay loops only write the time of their last transfer; started by the
/// first relay (the relay loops keep their own timeouts, and add none). (When the proxy
/// stops, Kestrel stops accepting, lets its connections run until <c>shutdownTimeoutMs</c> has passed and aborts those
/// still open: their relays end with them.)
/// </summary>
internal sealed class TcpRelayTracker : IDisposable
{
    private readonly ConcurrentDictionary<ITcpRelay, byte> _relays = new();
    private readonly OnDemandHeartbeat _heartbeat;

    public TcpRelayTracker() => _heartbeat = new OnDemandHeartbeat(static state => ((TcpRelayTracker)state!).ExpireIdle(), this);

    public void Add(ITcpRelay relay)
    {
        _relays.TryAdd(relay, 0);
        _heartbeat.Start();
    }

    public void Remove(ITcpRelay relay) => _relays.TryRemove(relay, out _);

    public void Dispose() => _heartbeat.Dispose();

    private void ExpireIdle()
    {
        var now = Environment.TickCount64;
        foreach (var relay in _relays.Keys)
        {
            relay.OnHeartbeat(now);
        }
    }
}
