using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace LLRP.Transport.Epoll;

/// <summary>
/// One block of <see cref="PinnedBlockPool"/>: an array allocated on the pinned object heap, so a send or receive takes
/// its address without pinning it (a <see cref="GCHandle"/> per segment per call otherwise). Disposing it gives it back.
/// </summary>
internal sealed unsafe class PinnedBlock : MemoryManager<byte>
{
    private readonly byte[] _array;
    private readonly PinnedBlockPool _pool;

    public PinnedBlock(PinnedBlockPool pool, int size)
    {
        _pool = pool;
        _array = GC.AllocateUninitializedArray<byte>(size, pinned: true);
    }

    public int Size => _array.Length;

    public override Span<byte> GetSpan() => _array;

    public override MemoryHandle Pin(int elementIndex = 0)
        => new((byte*)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(_array)) + elementIndex);

    public override void Unpin()
    {
    }

    protected override void Dispose(bool disposing) => _pool.Return(this);
}
