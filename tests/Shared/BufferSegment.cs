using System.Buffers;

namespace LLRP.Testing;

/// <summary>One segment of a hand-built multi-segment <see cref="ReadOnlySequence{T}"/>.</summary>
internal sealed class BufferSegment : ReadOnlySequenceSegment<byte>
{
    public BufferSegment(ReadOnlyMemory<byte> memory, long runningIndex)
    {
        Memory = memory;
        RunningIndex = runningIndex;
    }

    public BufferSegment Append(ReadOnlyMemory<byte> memory)
    {
        var next = new BufferSegment(memory, RunningIndex + Memory.Length);
        Next = next;
        return next;
    }
}
