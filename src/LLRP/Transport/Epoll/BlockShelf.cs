using System.Diagnostics.CodeAnalysis;

namespace LLRP.Transport.Epoll;

/// <summary>
/// The blocks of one size that <see cref="PinnedBlockPool"/> keeps for reuse: at most a bound, and of those only what a
/// trim period used. The shelf notes the fewest blocks it held since the last <see cref="Trim"/> (its low-water mark): that
/// many were never needed in the period, and the next trim lets go of them, so a burst's blocks leave once the burst is
/// over. The shelf is a stack: a rent takes the block returned last, whose first bytes and header are likely still in the
/// cache (a loop that receives, relays and returns a block hands it to the next socket it reads), where a queue would
/// hand out the block returned longest ago; a trim lets go of the bottom ones, returned longest ago.
/// </summary>
internal sealed class BlockShelf(int bound)
{
    private readonly Lock _gate = new();
    private readonly PinnedBlock?[] _blocks = new PinnedBlock?[bound];
    private int _count;
    private int _lowWater;

    /// <summary>Blocks on the shelf.</summary>
    public int Count => Volatile.Read(ref _count);

    public bool TryTake([NotNullWhen(true)] out PinnedBlock? block)
    {
        lock (_gate)
        {
            if (_count == 0)
            {
                block = null;
                return false;
            }

            var count = --_count;
            block = _blocks[count]!;
            _blocks[count] = null;
            if (count < _lowWater)
            {
                _lowWater = count;
            }

            return true;
        }
    }

    /// <summary>Keeps <paramref name="block"/>, unless the shelf holds its bound: then the block is left to the GC.</summary>
    public void Put(PinnedBlock block)
    {
        lock (_gate)
        {
            if (_count < _blocks.Length)
            {
                _blocks[_count++] = block;
            }
        }
    }

    /// <summary>Lets go of as many blocks as stayed on the shelf through the whole period, then starts the next period.</summary>
    public void Trim()
    {
        lock (_gate)
        {
            var unused = Math.Min(_lowWater, _count);
            if (unused > 0)
            {
                Array.Copy(_blocks, unused, _blocks, 0, _count - unused);
                Array.Clear(_blocks, _count - unused, unused);
                _count -= unused;
            }

            _lowWater = _count;
        }
    }
}
