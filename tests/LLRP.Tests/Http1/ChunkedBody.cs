using System.Buffers;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http1;

/// <summary>Drives a <see cref="ChunkedDecoder"/> the way the proxy does: call, take the data, call again with the rest.</summary>
internal static class ChunkedBody
{
    public const int LineLimit = 4 * 1024;
    public const int TrailerLimit = 64 * 1024;

    /// <summary>Decodes until the decoder needs more input or completes.</summary>
    public static ChunkedDecodeResult Decode(ref ChunkedDecoder decoder, ReadOnlySequence<byte> input)
    {
        var data = new List<byte>();
        var remaining = input;
        while (true)
        {
            var status = decoder.Decode(remaining, out var consumed, out var chunk);
            remaining = remaining.Slice(consumed);
            if (status != ChunkedDecodeStatus.Data)
            {
                Assert.True(chunk.IsEmpty, "data is returned only with Data");
                return new ChunkedDecodeResult(status, Text.Of(data.ToArray()), input.Length - remaining.Length);
            }

            Assert.False(chunk.IsEmpty, "Data never returns an empty slice");
            data.AddRange(chunk.ToArray());
        }
    }

    /// <summary>Decodes with a fresh decoder.</summary>
    public static ChunkedDecodeResult Decode(ReadOnlySequence<byte> input, int lineLimit = LineLimit, int trailerLimit = TrailerLimit)
    {
        var decoder = new ChunkedDecoder(lineLimit, trailerLimit);
        return Decode(ref decoder, input);
    }

    /// <summary>Decodes a body cut every possible way; returns the one result all splits agree on.</summary>
    public static ChunkedDecodeResult EverySplit(string body, int lineLimit = LineLimit, int trailerLimit = TrailerLimit)
        => Segmented.SameForEverySplit(Text.Bytes(body), input => Decode(input, lineLimit, trailerLimit));

    /// <summary>Asserts that every split of the body is rejected for the same reason, and returns it.</summary>
    public static RejectionReason RejectEverySplit(string body, int lineLimit = LineLimit, int trailerLimit = TrailerLimit)
        => Segmented.SameForEverySplit(
            Text.Bytes(body),
            input => Assert.Throws<HttpMessageException>(() => Decode(input, lineLimit, trailerLimit)).Reason);

    /// <summary>Feeds one byte per call: every byte is consumed at once, and Completed comes with the last byte, not before.</summary>
    public static string DecodeByteByByte(byte[] body)
    {
        var decoder = new ChunkedDecoder(LineLimit, TrailerLimit);
        var data = new List<byte>();
        for (var i = 0; i < body.Length; i++)
        {
            Assert.False(decoder.IsCompleted);
            var result = Decode(ref decoder, new ReadOnlySequence<byte>(body, i, 1));
            Assert.Equal(1, result.Consumed);
            Assert.Equal(i == body.Length - 1 ? ChunkedDecodeStatus.Completed : ChunkedDecodeStatus.NeedMoreData, result.Status);
            data.AddRange(Text.Bytes(result.Data));
        }

        Assert.True(decoder.IsCompleted);
        return Text.Of(data.ToArray());
    }
}
