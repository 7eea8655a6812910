namespace LLRP.Tasks;

/// <summary>
/// A callback once a second (or every <c>interval</c>), started by the first <see cref="Start"/> (a first connection, a
/// first idle one, a first block) rather than with its owner, and run on <see cref="HeartbeatThread"/>, not by a
/// <see cref="Timer"/>: a timer's callback wakes the thread pool each time, whose workers spin on <c>sched_yield</c>
/// before they sleep again (measured on one core: 200–500 calls a second per one-second timer, idle or under load), on
/// the core that relays. <see cref="Dispose"/> stops it, and no later <see cref="Start"/> starts it again.
/// </summary>
internal sealed class OnDemandHeartbeat(Action<object?> beat, object? state, TimeSpan interval) : IDisposable
{
    /// <summary>The interval of a heartbeat made without one: a second.</summary>
    public static readonly TimeSpan DefaultInterval = TimeSpan.FromSeconds(1);

    /// <summary>Guards the start against the disposal.</summary>
    private readonly Lock _gate = new();
    private volatile bool _started;
    private bool _disposed;

    public OnDemandHeartbeat(Action<object?> beat, object? state)
        : this(beat, state, DefaultInterval)
    {
    }

    /// <summary>Starts the heartbeat unless it runs already or was disposed (once it runs, this reads a field).</summary>
    public void Start()
    {
        if (_started)
        {
            return;
        }

        lock (_gate)
        {
            if (!_started && !_disposed)
            {
                _started = true;
                HeartbeatThread.Add(this);
            }
        }
    }

    public void Dispose()
    {
        lock (_gate)
        {
            _disposed = true;
            if (_started)
            {
                HeartbeatThread.Remove(this);
            }
        }
    }

    /// <summary>Milliseconds between two beats.</summary>
    public long IntervalMs { get; } = (long)interval.TotalMilliseconds;

    /// <summary>Runs the callback; on <see cref="HeartbeatThread"/>.</summary>
    public void Beat() => beat(state);
}
