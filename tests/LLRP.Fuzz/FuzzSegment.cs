using System.Buffers;

namespace LLRP.Fuzz;

/// <summary>One segment of a multi-segment <see cref="ReadOnlySequence{T}"/> built from a fuzzing input.</summary>
internal sealed class FuzzSegment : ReadOnlySequenceSegment<byte>
{
    public FuzzSegment(ReadOnlyMemory<byte> memory, long runningIndex)
    {
        Memory = memory;
        RunningIndex = runningIndex;
    }

    public FuzzSegment Append(ReadOnlyMemory<byte> memory)
    {
        var next = new FuzzSegment(memory, RunningIndex + Memory.Length);
        Next = next;
        return next;
    }
}
