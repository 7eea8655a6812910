using System.Buffers;
using System.Runtime.InteropServices;
using LLRP.Transport.Epoll;

namespace LLRP.Tests.Transport;

/// <summary>
/// The epoll transport's block pool keeps returned blocks for reuse only while they are used: a trim lets go of the blocks
/// no rent needed since the trim before, and keeps those a period did need.
/// </summary>
public class PinnedBlockPoolTests
{
    [Fact]
    public void Trim_AfterAPeriodWithoutRents_LetsGoOfEveryBlock()
    {
        using var pool = new PinnedBlockPool();
        ReturnAll(RentLarge(pool, 10));
        Assert.Equal(10, pool.Kept);

        // The period the blocks came back in needed them: the first trim keeps them all.
        pool.Trim();
        Assert.Equal(10, pool.Kept);

        pool.Trim();
        Assert.Equal(0, pool.Kept);
        Assert.Equal(0, pool.Rented);
    }

    [Fact]
    public void Trim_KeepsAsManyBlocksAsThePeriodRentedAtOnce()
    {
        using var pool = new PinnedBlockPool();
        ReturnAll(RentLarge(pool, 10));
        pool.Trim();

        ReturnAll(RentLarge(pool, 4));
        pool.Trim();

        Assert.Equal(4, pool.Kept);
    }

    [Fact]
    public void Rent_AfterATrim_AllocatesWhatThePoolNoLongerHolds()
    {
        using var pool = new PinnedBlockPool();
        ReturnAll(RentLarge(pool, 3));
        pool.Trim();
        pool.Trim();

        var blocks = RentLarge(pool, 3);

        Assert.Equal(3, pool.Rented);
        Assert.All(blocks, block => Assert.Equal(PinnedBlockPool.LargeSize, block.Memory.Length));
        ReturnAll(blocks);
        Assert.Equal(0, pool.Rented);
    }

    /// <summary>A rent takes the block returned last, the one most likely still in the cache.</summary>
    [Fact]
    public void Rent_GivesTheBlockReturnedLast()
    {
        using var pool = new PinnedBlockPool();
        var blocks = RentLarge(pool, 3);
        ReturnAll(blocks);

        using var again = pool.Rent(PinnedBlockPool.LargeSize);

        Assert.Same(blocks[2], again);
    }

    [Fact]
    public void Trim_LetsGoOfTheBlocksReturnedLongestAgo()
    {
        using var pool = new PinnedBlockPool();
        var blocks = RentLarge(pool, 3);
        ReturnAll(blocks);
        pool.Trim();

        // The period needed one block of three: the next trim keeps one, the one returned last.
        pool.Rent(PinnedBlockPool.LargeSize).Dispose();
        pool.Trim();

        Assert.Equal(1, pool.Kept);
        using var kept = pool.Rent(PinnedBlockPool.LargeSize);
        Assert.Same(blocks[2], kept);
    }

    /// <summary>
    /// A block is the array itself, not a memory manager over it (whose span would be a virtual call), and stays where it
    /// is through a compacting collection: a receive or send takes its address with no pin of its own.
    /// </summary>
    [Theory]
    [InlineData(PinnedBlockPool.SmallSize)]
    [InlineData(PinnedBlockPool.LargeSize)]
    public void Rent_GivesArrayBackedMemoryThatNeverMoves(int size)
    {
        using var pool = new PinnedBlockPool();
        using var block = pool.Rent(size);

        Assert.False(MemoryMarshal.TryGetMemoryManager<byte, MemoryManager<byte>>(block.Memory, out _));
        Assert.True(MemoryMarshal.TryGetArray<byte>(block.Memory, out var array));
        Assert.Equal((0, size, size), (array.Offset, array.Count, array.Array!.Length));

        var before = Marshal.UnsafeAddrOfPinnedArrayElement(array.Array, 0);
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
        Assert.Equal(before, Marshal.UnsafeAddrOfPinnedArrayElement(array.Array, 0));
    }

    private static List<IMemoryOwner<byte>> RentLarge(PinnedBlockPool pool, int count)
        => [.. Enumerable.Range(0, count).Select(_ => pool.Rent(PinnedBlockPool.LargeSize))];

    private static void ReturnAll(List<IMemoryOwner<byte>> blocks)
    {
        foreach (var block in blocks)
        {
            block.Dispose();
        }
    }
}
