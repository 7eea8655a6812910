using System.Buffers;
using LLRP.Testing;

namespace LLRP.Fuzz;

/// <summary>
/// An input as a target reads it: the first byte chooses the segment length (1 to 32), the rest is the message. The
/// message is parsed whole and again cut into segments of that length, as bytes arriving in pieces would be.
/// </summary>
internal readonly struct FuzzInput
{
    private FuzzInput(byte[] message, int segmentLength)
    {
        Message = message;
        SegmentLength = segmentLength;
    }

    public byte[] Message { get; }

    public int SegmentLength { get; }

    public ReadOnlySequence<byte> Whole => new(Message);

    public static FuzzInput From(byte[] input) => input.Length == 0
        ? new FuzzInput([], 1)
        : new FuzzInput(input[1..], 1 + (input[0] % 32));

    /// <summary>The bytes from <paramref name="start"/> to <paramref name="end"/>, one segment per <see cref="SegmentLength"/> bytes.</summary>
    public ReadOnlySequence<byte> Segmented(int start, int end)
    {
        if (end - start <= SegmentLength)
        {
            return new ReadOnlySequence<byte>(Message, start, end - start);
        }

        var first = new BufferSegment(Message.AsMemory(start, SegmentLength), 0);
        var last = first;
        for (var offset = start + SegmentLength; offset < end; offset += SegmentLength)
        {
            last = last.Append(Message.AsMemory(offset, Math.Min(SegmentLength, end - offset)));
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }
}
