using System.Buffers;
using System.Runtime.InteropServices;

namespace LLRP.Transport.Epoll;

/// <summary>
/// One block of <see cref="PinnedBlockPool"/>: an array allocated on the pinned object heap, handed out as array-backed
/// memory marked pinned (<see cref="MemoryMarshal.CreateFromPinnedArray{T}"/>). Its <see cref="Memory{T}.Span"/> is then
/// the array's, with no virtual call (a <see cref="MemoryManager{T}"/>'s span is its <c>GetSpan</c>), and its
/// <see cref="Memory{T}.Pin"/> the array's address, with no <see cref="GCHandle"/> and no handle to release. Disposing it
/// gives it back.
/// </summary>
internal sealed class PinnedBlock : IMemoryOwner<byte>
{
    private readonly PinnedBlockPool _pool;

    public PinnedBlock(PinnedBlockPool pool, int size)
    {
        _pool = pool;
        Memory = MemoryMarshal.CreateFromPinnedArray(GC.AllocateUninitializedArray<byte>(size, pinned: true), 0, size);
    }

    public Memory<byte> Memory { get; }

    public int Size => Memory.Length;

    public void Dispose() => _pool.Return(this);
}
