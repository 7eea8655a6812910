namespace LLRP.Diagnostics;

/// <summary>Lets one event a second through and counts the ones it holds back. Thread-safe, allocation-free.</summary>
internal struct LogGate
{
    private const long IntervalMs = 1000;

    private long _nextAllowed;
    private int _suppressed;

    /// <summary>True when the event may be logged now; <paramref name="suppressed"/> is how many were held back since the last one.</summary>
    public bool TryPass(long nowMs, out int suppressed)
    {
        var next = Volatile.Read(ref _nextAllowed);
        if (nowMs < next || Interlocked.CompareExchange(ref _nextAllowed, nowMs + IntervalMs, next) != next)
        {
            Interlocked.Increment(ref _suppressed);
            suppressed = 0;
            return false;
        }

        suppressed = Interlocked.Exchange(ref _suppressed, 0);
        return true;
    }
}
