using System.Buffers;
using System.IO.Pipelines;
using LLRP.Tasks;

namespace LLRP.Transport.Epoll;

/// <summary>
/// The epoll transport's memory: blocks of 4 KiB (what the proxy writes) and 64 KiB (what one receive reads, and a large
/// write's blocks after its first), pinned once, kept for reuse up to a bound per size and as long as they are used: every
/// <see cref="TrimPeriod"/> from the first block made, the blocks no rent needed during the period go (<see cref="BlockShelf"/>). <see cref="Rented"/>
/// counts the blocks out: an idle connection holds none, and an idle proxy keeps none two periods after its last burst.
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

    /// <summary>Long enough that a steady load keeps what it uses from one period to the next, short enough that a burst's blocks go soon after it.</summary>
    private static readonly TimeSpan TrimPeriod = TimeSpan.FromSeconds(10);

    private readonly BlockShelf _small = new(KeptSmall);
    private readonly BlockShelf _large = new(KeptLarge);
    private readonly OnDemandHeartbeat _trimmer;
    private long _rented;

    public PinnedBlockPool()
    {
        InputPipeOptions = PipeOptionsFor(LargeSize);
        OutputPipeOptions = PipeOptionsFor(SmallSize);
        _trimmer = new OnDemandHeartbeat(static pool => ((PinnedBlockPool)pool!).Trim(), this, TrimPeriod);
    }

    public override int MaxBufferSize => LargeSize;

    /// <summary>The options of every connection's input pipe (one set for all of them: an idle connection holds none of its own).</summary>
    public PipeOptions InputPipeOptions { get; }

    /// <summary>The options of every connection's output pipe.</summary>
    public PipeOptions OutputPipeOptions { get; }

    /// <summary>Blocks rented and not yet returned.</summary>
    public long Rented => Volatile.Read(ref _rented);

    /// <summary>Blocks kept for reuse, of both sizes.</summary>
    public int Kept => _small.Count + _large.Count;

    public override IMemoryOwner<byte> Rent(int minBufferSize = -1)
    {
        if (minBufferSize > LargeSize)
        {
            throw new ArgumentOutOfRangeException(nameof(minBufferSize), minBufferSize, $"At most {LargeSize} bytes.");
        }

        var large = minBufferSize > SmallSize;
        if (!(large ? _large : _small).TryTake(out var block))
        {
            block = new PinnedBlock(this, large ? LargeSize : SmallSize);
            _trimmer.Start();
        }

        Interlocked.Increment(ref _rented);
        return block;
    }

    public void Return(PinnedBlock block)
    {
        Interlocked.Decrement(ref _rented);
        (block.Size == LargeSize ? _large : _small).Put(block);
    }

    /// <summary>Lets go of the blocks of either size that no rent needed since the last trim; the timer calls it every period.</summary>
    public void Trim()
    {
        _small.Trim();
        _large.Trim();
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

    protected override void Dispose(bool disposing) => _trimmer.Dispose();
}
