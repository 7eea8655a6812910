namespace LLRP.Tasks;

/// <summary>
/// The idle boxes of one method that threads pass to each other, at most <see cref="BoxPool.MaxShared"/>: a box given
/// back on a thread whose own cache is full goes here, and a thread whose own cache is empty takes one from here before it
/// makes a new one. Without it, a method that suspends on one thread and is read on another (an HTTP/2 stream starts on
/// the thread pool, its destination's answer completes it on the socket thread) allocates a box at every call: the
/// renting thread's cache never fills and the returning thread's overflows. Guarded by a lock, taken once per give-back
/// or take that the thread's own cache could not serve; emptied with the caches at each gen2 collection (the trim writes
/// its slots without the lock).
/// </summary>
/// <typeparam name="TBox">The method's box type.</typeparam>
internal sealed class BoxExchange<TBox>
    where TBox : class
{
    private readonly TBox?[] _boxes = new TBox?[BoxPool.MaxShared];
    private readonly Lock _sync = new();
    private int _count;

    public BoxExchange() => BoxPool.Register(_boxes);

    /// <summary>Keeps <paramref name="box"/> for any thread; false when the exchange is full (the box is then dropped).</summary>
    public bool TryAdd(TBox box)
    {
        lock (_sync)
        {
            ForgetTrimmed();
            if (_count == _boxes.Length)
            {
                return false;
            }

            _boxes[_count++] = box;
            return true;
        }
    }

    /// <summary>A kept box, or null when none is.</summary>
    public TBox? TryTake()
    {
        lock (_sync)
        {
            ForgetTrimmed();
            if (_count == 0)
            {
                return null;
            }

            var box = _boxes[--_count];
            _boxes[_count] = null;
            return box;
        }
    }

    /// <summary>
    /// Under the lock: a box is always added on top and taken from it, so an empty top slot means <see cref="BoxPool.Trim"/>
    /// emptied the slots: the exchange starts again from none (a box a trim left below is dropped to the collector).
    /// </summary>
    private void ForgetTrimmed()
    {
        if (_count > 0 && _boxes[_count - 1] is null)
        {
            _count = 0;
        }
    }
}
