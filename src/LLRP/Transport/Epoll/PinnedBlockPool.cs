using System.Buffers;
using System.Collections.Concurrent;
using System.IO.Pipelines;

namespace LLRP.Transport.Epoll;

/// <summary>
/// The epoll transport's memory: blocks of 4 KiB (what the proxy writes) and 64 KiB (what one receive reads, and a large
/// write's blocks after its first), pinned
/// once, kept for reuse up to a bound per size. <see cref="Rented"/> counts the blocks out: an idle connection holds none.
/// </summary>
internal sealed class PinnedBlockPool : MemoryPool<byte>
{
    public const int SmallSize = 4 * 1024;
    public const int LargeSize = 64 * 1024;

    /// <summary>
    /// Kept for reuse at most: 16 MiB of small blocks (what heads and small bodies take), 32 MiB of large ones (a read
    /// block for each busy socket, and the output of a large body: a 100 KB response relayed takes one small block and two
    /// large ones, <see cref="SendingPipeWriter"/>).
    /// </summary>
    private const int KeptSmall = 4096;
    private const int KeptLarge = 512;

    private readonly ConcurrentQueue<PinnedBlock> _small = new();
    private readonly ConcurrentQueue<PinnedBlock> _large = new();
    private long _rented;

    public PinnedBlockPool()
    {
        InputPipeOptions = PipeOptionsFor(LargeSize);
        OutputPipeOptions = PipeOptionsFor(SmallSize);
    }

    public override int MaxBufferSize => LargeSize;

    /// <summary>The options of every connection's input pipe (one set for all of them: an idle connection holds none of its own).</summary>
    public PipeOptions InputPipeOptions { get; }

    /// <summary>The options of every connection's output pipe.</summary>
    public PipeOptions OutputPipeOptions { get; }

    /// <summary>Blocks rented and not yet returned.</summary>
    public long Rented => Volatile.Read(ref _rented);

    public override IMemoryOwner<byte> Rent(int minBufferSize = -1)
    {
        if (minBufferSize > LargeSize)
        {
            throw new ArgumentOutOfRangeException(nameof(minBufferSize), minBufferSize, $"At most {LargeSize} bytes.");
        }

        var large = minBufferSize > SmallSize;
        var queue = large ? _large : _small;
        if (!queue.TryDequeue(out var block))
        {
            block = new PinnedBlock(this, large ? LargeSize : SmallSize);
        }

        Interlocked.Increment(ref _rented);
        return block;
    }

    public void Return(PinnedBlock block)
    {
        Interlocked.Decrement(ref _rented);
        var (queue, kept) = block.Size == LargeSize ? (_large, KeptLarge) : (_small, KeptSmall);
        if (queue.Count < kept)
        {
            queue.Enqueue(block);
        }
    }

    /// <summary>Either direction's pipe: 1 MiB may wait in it before the writer pauses, until half of that is read.</summary>
    private PipeOptions PipeOptionsFor(int minimumSegmentSize) => new(
        pool: this,
        readerScheduler: PipeScheduler.Inline,
        writerScheduler: PipeScheduler.Inline,
        pauseWriterThreshold: 1024 * 1024,
        resumeWriterThreshold: 512 * 1024,
        minimumSegmentSize: minimumSegmentSize,
        useSynchronizationContext: false);

    protected override void Dispose(bool disposing)
    {
    }
}
