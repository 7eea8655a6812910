using System.Buffers;
using LLRP.Http1;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http1;

/// <summary>Writing the chunked coding (RFC 9112 §7.1) and reading it back.</summary>
public sealed class ChunkedEncodingTests
{
    /// <summary>RFC 9112 §7.1: chunk = chunk-size CRLF chunk-data CRLF, the size in hex.</summary>
    [Theory]
    [InlineData(1, "1")]
    [InlineData(10, "A")]
    [InlineData(255, "FF")]
    [InlineData(4096, "1000")]
    [InlineData(70000, "11170")]
    public void WriteChunk_HexSizeLine(int length, string hex)
    {
        var data = new string('d', length);

        Assert.Equal($"{hex}\r\n{data}\r\n", Write(output => WriteChunk(output, Text.Bytes(data))));
    }

    /// <summary>RFC 9112 §7.1: a zero size is the last chunk, so empty data writes no chunk at all.</summary>
    [Fact]
    public void WriteChunk_Empty_WritesNothing()
        => Assert.Equal("", Write(output => WriteChunk(output, [])));

    /// <summary>RFC 9112 §7.1: last-chunk = 1*("0") [ chunk-ext ] CRLF, then an empty trailer section and CRLF.</summary>
    [Fact]
    public void WriteLastChunk()
        => Assert.Equal("0\r\n\r\n", Write(output =>
        {
            var writer = new BufferWriter<ArrayBufferWriter<byte>>(output, 0);
            ChunkedEncoding.WriteLastChunk(ref writer);
            writer.Commit();
        }));

    /// <summary>Multi-segment data is written as one chunk whatever its segments.</summary>
    [Fact]
    public void WriteChunk_MultiSegmentData_OneChunk()
    {
        var data = Text.Bytes("hello, world");
        var expected = "C\r\nhello, world\r\n";

        Segmented.ForEachSplit(data, input => Assert.Equal(expected, Write(output =>
        {
            var writer = new BufferWriter<ArrayBufferWriter<byte>>(output, 0);
            ChunkedEncoding.WriteChunk(ref writer, input);
            writer.Commit();
        })));
    }

    /// <summary>A writer that hands out one byte at a time gets the same bytes (the multi-buffer path).</summary>
    [Fact]
    public void WriteChunk_TinySpans_SameBytes()
    {
        var output = new TinySpanBufferWriter();
        var writer = new BufferWriter<TinySpanBufferWriter>(output, 0);
        ChunkedEncoding.WriteChunk(ref writer, Segmented.Create(Text.Bytes("hello, world"), 3, 5));
        ChunkedEncoding.WriteLastChunk(ref writer);
        writer.Commit();

        Assert.Equal("C\r\nhello, world\r\n0\r\n\r\n", Text.Of(output.WrittenSpan));
        Assert.True(output.AdvanceCount > 1, "the output was advanced once per span");
    }

    /// <summary>Encode then decode gives the data back, for sizes around every hex digit boundary, through both writers.</summary>
    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(15)]
    [InlineData(16)]
    [InlineData(17)]
    [InlineData(255)]
    [InlineData(256)]
    [InlineData(4095)]
    [InlineData(4096)]
    [InlineData(65537)]
    [InlineData(1_000_000)]
    public void RoundTrip_RandomData(int length)
    {
        var random = new Random(length);
        var data = new byte[length];
        random.NextBytes(data);

        foreach (var tiny in new[] { false, true })
        {
            byte[] encoded;
            if (tiny)
            {
                var output = new TinySpanBufferWriter();
                Encode(output, data, random);
                encoded = output.WrittenSpan.ToArray();
            }
            else
            {
                var output = new ArrayBufferWriter<byte>();
                Encode(output, data, random);
                encoded = output.WrittenSpan.ToArray();
            }

            var decoder = new ChunkedDecoder(ChunkedBody.LineLimit, ChunkedBody.TrailerLimit);
            var cuts = Enumerable.Range(0, 3).Select(_ => random.Next(encoded.Length)).Order().Distinct().Where(p => p > 0).ToArray();
            var result = ChunkedBody.Decode(ref decoder, Segmented.Create(encoded, cuts));

            Assert.Equal(ChunkedDecodeStatus.Completed, result.Status);
            Assert.Equal(encoded.Length, result.Consumed);
            Assert.Equal(data, Text.Bytes(result.Data));
        }
    }

    private static void WriteChunk(ArrayBufferWriter<byte> output, byte[] data)
    {
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(output, 0);
        ChunkedEncoding.WriteChunk(ref writer, new ReadOnlySequence<byte>(data));
        writer.Commit();
    }

    private static string Write(Action<ArrayBufferWriter<byte>> write)
    {
        var output = new ArrayBufferWriter<byte>();
        write(output);
        return Text.Of(output.WrittenSpan);
    }

    /// <summary>Chunks of random sizes, then the last chunk.</summary>
    private static void Encode<TWriter>(TWriter output, byte[] data, Random random)
        where TWriter : IBufferWriter<byte>
    {
        var writer = new BufferWriter<TWriter>(output, 0);
        for (var offset = 0; offset < data.Length;)
        {
            var size = Math.Min(data.Length - offset, random.Next(1, 70_000));
            ChunkedEncoding.WriteChunk(ref writer, new ReadOnlySequence<byte>(data, offset, size));
            offset += size;
        }

        ChunkedEncoding.WriteLastChunk(ref writer);
        writer.Commit();
    }
}
