namespace LLRP.Tasks;

/// <summary>
/// A callback once a second, started by the first <see cref="Start"/> (a first connection, a first idle one) rather than
/// with its owner: a timer that fires on a proxy with nothing for it wakes the thread pool every second, whose workers
/// spin on <c>sched_yield</c> before they sleep again (measured on one core: 200–500 calls a second per timer, idle or
/// under load), on the core that relays. <see cref="Dispose"/> stops it, and no later <see cref="Start"/> starts it again.
/// </summary>
internal sealed class OnDemandHeartbeat(Action<object?> beat, object? state) : IDisposable
{
    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    /// <summary>Guards the start against the disposal.</summary>
    private readonly Lock _gate = new();
    private volatile Timer? _timer;
    private bool _disposed;

    /// <summary>Starts the heartbeat unless it runs already or was disposed (once it runs, this reads a field).</summary>
    public void Start()
    {
        if (_timer is not null)
        {
            return;
        }

        lock (_gate)
        {
            if (_timer is null && !_disposed)
            {
                _timer = new Timer(static heartbeat => ((OnDemandHeartbeat)heartbeat!).Beat(), this, Interval, Interval);
            }
        }
    }

    public void Dispose()
    {
        lock (_gate)
        {
            _disposed = true;
            _timer?.Dispose();
        }
    }

    private void Beat() => beat(state);
}
