using System.Collections.Concurrent;

namespace LLRP.Tcp.Splice;

/// <summary>
/// Empty pipes for the relays' splices, shared by every TCP route: a relay takes one when bytes are ready and returns it
/// once they are through, so an idle relay holds none. At most <see cref="MaxPooled"/> are kept; more are closed.
/// </summary>
internal sealed class SplicePipePool
{
    /// <summary>Enough for every core's relays moving bytes at once, each way, with room to spare.</summary>
    private static readonly int MaxPooled = Environment.ProcessorCount * 16;

    private readonly ConcurrentQueue<SplicePipe> _pipes = new();
    private int _count;

    /// <returns>A pooled or new pipe, or null when the system refuses a new one.</returns>
    public SplicePipe? Rent()
    {
        if (_pipes.TryDequeue(out var pipe))
        {
            Interlocked.Decrement(ref _count);
            return pipe;
        }

        return SplicePipe.Open();
    }

    /// <param name="pipe">An empty pipe.</param>
    public void Return(SplicePipe pipe)
    {
        if (Interlocked.Increment(ref _count) <= MaxPooled)
        {
            _pipes.Enqueue(pipe);
            return;
        }

        Interlocked.Decrement(ref _count);
        pipe.Close();
    }
}
