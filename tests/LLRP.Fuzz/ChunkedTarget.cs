using System.Buffers;
using LLRP.Http1;

namespace LLRP.Fuzz;

/// <summary>
/// <see cref="ChunkedDecoder"/> over the body whole, and again as it would arrive from a socket: a segment more at a
/// time, each call given what earlier calls left unconsumed. Both must decode the same data and end the same way
/// (completed after the same number of bytes, still waiting, or rejected for the same reason); every call must make
/// progress and return data only with <see cref="ChunkedDecodeStatus.Data"/>.
/// </summary>
internal static class ChunkedTarget
{
    private const int MaxLineSize = 64;
    private const int MaxTrailerSize = 256;

    public static void Run(byte[] bytes)
    {
        var input = FuzzInput.From(bytes);
        OracleViolation.ThrowIfDifferent(DecodeWhole(input), DecodeArriving(input), input.SegmentLength);
    }

    private static string DecodeWhole(FuzzInput input)
    {
        var decoder = new ChunkedDecoder(MaxLineSize, MaxTrailerSize);
        var data = new List<byte>();
        try
        {
            var (status, consumed) = Decode(ref decoder, input.Whole, data);
            return Describe(status, consumed, data);
        }
        catch (HttpMessageException e)
        {
            return $"rejected: {e.Reason} after {data.Count} data bytes";
        }
    }

    private static string DecodeArriving(FuzzInput input)
    {
        var decoder = new ChunkedDecoder(MaxLineSize, MaxTrailerSize);
        var data = new List<byte>();
        var start = 0;
        var end = 0;
        try
        {
            while (true)
            {
                end = Math.Min(input.Message.Length, end + input.SegmentLength);
                var (status, consumed) = Decode(ref decoder, input.Segmented(start, end), data);
                start += consumed;
                if (status == ChunkedDecodeStatus.Completed || end == input.Message.Length)
                {
                    return Describe(status, start, data);
                }
            }
        }
        catch (HttpMessageException e)
        {
            return $"rejected: {e.Reason} after {data.Count} data bytes";
        }
    }

    /// <summary>Calls the decoder until it needs more input or completes; returns how it stopped and the bytes it consumed.</summary>
    private static (ChunkedDecodeStatus Status, int Consumed) Decode(ref ChunkedDecoder decoder, ReadOnlySequence<byte> input, List<byte> data)
    {
        var remaining = input;
        while (true)
        {
            var status = decoder.Decode(remaining, out var consumed, out var chunk);
            var before = remaining.Length;
            remaining = remaining.Slice(consumed);
            if (status == ChunkedDecodeStatus.Data)
            {
                if (chunk.IsEmpty || remaining.Length >= before)
                {
                    throw new OracleViolation($"Data with {chunk.Length} bytes after consuming {before - remaining.Length}");
                }

                data.AddRange(chunk.ToArray());
                continue;
            }

            if (!chunk.IsEmpty)
            {
                throw new OracleViolation($"{status} returned {chunk.Length} data bytes");
            }

            if (status == ChunkedDecodeStatus.NeedMoreData && !remaining.IsEmpty)
            {
                throw new OracleViolation($"NeedMoreData with {remaining.Length} bytes unconsumed");
            }

            if (status == ChunkedDecodeStatus.Completed != decoder.IsCompleted)
            {
                throw new OracleViolation($"{status} while IsCompleted is {decoder.IsCompleted}");
            }

            return (status, (int)(input.Length - remaining.Length));
        }
    }

    private static string Describe(ChunkedDecodeStatus status, int consumed, List<byte> data)
        => $"{status} after {consumed} bytes, {data.Count} data bytes, data hash {HashOf(data)}";

    private static int HashOf(List<byte> data)
    {
        var hash = new HashCode();
        foreach (var value in data)
        {
            hash.Add(value);
        }

        return hash.ToHashCode();
    }
}
