using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;

namespace LLRP.Transport.Epoll;

/// <summary>
/// The blocks of one size that <see cref="PinnedBlockPool"/> keeps for reuse: at most a bound, and of those only what a
/// trim period used. The shelf notes the fewest blocks it held since the last <see cref="Trim"/> (its low-water mark): that
/// many were never needed in the period, and the next trim lets go of them, so a burst's blocks leave once the burst is
/// over. The counts are kept beside the queue (its own count is not cheap) and may lag it by a block while another
/// thread puts or takes one: the bound and the mark are close, not exact.
/// </summary>
internal sealed class BlockShelf(int bound)
{
    private readonly ConcurrentQueue<PinnedBlock> _blocks = new();
    private int _count;
    private int _lowWater;

    /// <summary>Blocks on the shelf.</summary>
    public int Count => Math.Max(0, Volatile.Read(ref _count));

    public bool TryTake([NotNullWhen(true)] out PinnedBlock? block)
    {
        if (!_blocks.TryDequeue(out block))
        {
            return false;
        }

        var count = Interlocked.Decrement(ref _count);
        if (count < Volatile.Read(ref _lowWater))
        {
            Volatile.Write(ref _lowWater, count);
        }

        return true;
    }

    /// <summary>Keeps <paramref name="block"/>, unless the shelf holds its bound: then the block is left to the GC.</summary>
    public void Put(PinnedBlock block)
    {
        if (Volatile.Read(ref _count) >= bound)
        {
            return;
        }

        _blocks.Enqueue(block);
        Interlocked.Increment(ref _count);
    }

    /// <summary>Lets go of as many blocks as stayed on the shelf through the whole period, then starts the next period.</summary>
    public void Trim()
    {
        var unused = Interlocked.Exchange(ref _lowWater, int.MaxValue);
        for (var i = 0; i < unused && _blocks.TryDequeue(out _); i++)
        {
            Interlocked.Decrement(ref _count);
        }

        Volatile.Write(ref _lowWater, Count);
    }
}
