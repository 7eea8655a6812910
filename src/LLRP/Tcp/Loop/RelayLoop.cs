using LLRP.Transport.Epoll;

namespace LLRP.Tcp.Loop;

/// <summary>
/// One relay loop: its <see cref="EventLoop"/> and the relays living on it, in a list linked through the relays
/// themselves (no node per relay). Every <see cref="TickMs"/> the loop's tick hands the time to the relays whose deadline
/// has come (<see cref="RelayDeadlines"/>): their PROXY protocol header, connect and idle timeouts run from here, with no
/// timer per connection and no look at the others. Used on the loop's thread only.
/// </summary>
internal sealed class RelayLoop : IDisposable
{
    /// <summary>How often the timeouts are looked at: a timeout fires up to this late.</summary>
    public const int TickMs = 100;

    /// <summary>The most relays given back that the loop keeps for later connections (about 0.5 KiB each); more are left to the collector.</summary>
    public const int MaxIdleRelays = 1024;

    private readonly Stack<LoopRelay> _idle = new();
    private LoopRelay? _first;
    private int _count;

    private readonly RelayDeadlines _deadlines = new(TickMs, Environment.TickCount64);

    /// <remarks>
    /// The loop gathers arrivals while it holds more than one connection (a lone connection has nothing to gather with).
    /// </remarks>
    public RelayLoop(int id) => Loop = new EventLoop(id, _deadlines.Tick, TickMs, GatherNs);

    public EventLoop Loop { get; }

    /// <summary>The connections living on this loop, from their acceptance to their end (read from any thread).</summary>
    public int Count => Volatile.Read(ref _count);

    /// <summary>A relay for a connection just accepted: one given back, or a new one. From the listener's readiness only, where no relay's frame runs.</summary>
    public LoopRelay Rent() => _idle.TryPop(out var relay) ? relay : new LoopRelay(this);

    /// <summary>Keeps a relay that has ended and that nothing refers to any more (<see cref="LoopRelay.ReturnWhenUnused"/>).</summary>
    public void Return(LoopRelay relay)
    {
        if (_idle.Count < MaxIdleRelays)
        {
            _idle.Push(relay);
        }
    }

    public void Add(LoopRelay relay)
    {
        relay.Next = _first;
        if (_first is not null)
        {
            _first.Previous = relay;
        }

        _first = relay;
        Volatile.Write(ref _count, _count + 1);
    }

    /// <summary>Places <paramref name="relay"/> by its deadline, just set (<see cref="LoopRelay.Deadline"/>).</summary>
    public void Schedule(LoopRelay relay) => _deadlines.Schedule(relay);

    public void Remove(LoopRelay relay)
    {
        _deadlines.Remove(relay);
        if (relay.Previous is null)
        {
            _first = relay.Next;
        }
        else
        {
            relay.Previous.Next = relay.Next;
        }

        if (relay.Next is not null)
        {
            relay.Next.Previous = relay.Previous;
        }

        relay.Previous = null;
        relay.Next = null;
        Volatile.Write(ref _count, _count - 1);
    }

    /// <summary>Ends every relay of <paramref name="connections"/>'s route on this loop as aborted (the end of a graceful stop).</summary>
    public void Abort(TcpRouteConnections connections)
    {
        for (var relay = _first; relay is not null;)
        {
            var next = relay.Next;
            if (relay.Connections == connections)
            {
                relay.Abort();
            }

            relay = next;
        }
    }

    public void Dispose() => Loop.Dispose();

    /// <summary>How long the loop gathers after an iteration with work.</summary>
    private long GatherNs() => _count > 1 ? EventLoop.GatherPauseNs : 0;
}
