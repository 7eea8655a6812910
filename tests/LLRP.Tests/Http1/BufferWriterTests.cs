using System.Buffers;
using LLRP.Http1;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http1;

/// <summary><see cref="BufferWriter{TWriter}"/>: one Advance per Commit, correct bytes whatever spans the output hands out.</summary>
public sealed class BufferWriterTests
{
    [Fact]
    public void Write_NothingVisibleBeforeCommit()
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(output, 64);
        writer.Write("hello "u8);
        writer.WriteDecimal(42);

        Assert.Equal(0, output.WrittenCount);
        Assert.Equal(8, writer.BytesWritten);

        writer.Commit();
        writer.Write("!"u8);
        writer.Commit();

        Assert.Equal("hello 42!", Text.Of(output.WrittenSpan));
        Assert.Equal(9, writer.BytesWritten);
    }

    [Theory]
    [InlineData(0L, "0", "0")]
    [InlineData(9L, "9", "9")]
    [InlineData(10L, "10", "A")]
    [InlineData(255L, "255", "FF")]
    [InlineData(long.MaxValue, "9223372036854775807", "7FFFFFFFFFFFFFFF")]
    public void WriteDecimalAndHex(long value, string decimalText, string hexText)
    {
        var decimalOutput = new ArrayBufferWriter<byte>();
        var decimalWriter = new BufferWriter<ArrayBufferWriter<byte>>(decimalOutput, 0);
        decimalWriter.WriteDecimal(value);
        decimalWriter.Commit();
        var hexOutput = new ArrayBufferWriter<byte>();
        var hexWriter = new BufferWriter<ArrayBufferWriter<byte>>(hexOutput, 0);
        hexWriter.WriteHex(value);
        hexWriter.Commit();

        Assert.Equal(decimalText, Text.Of(decimalOutput.WrittenSpan));
        Assert.Equal(hexText, Text.Of(hexOutput.WrittenSpan));
    }

    /// <summary>Spans of one byte force every write through the multi-buffer path; the bytes come out the same.</summary>
    [Fact]
    public void Write_TinySpans_SameBytes()
    {
        var output = new TinySpanBufferWriter();
        var writer = new BufferWriter<TinySpanBufferWriter>(output, 0);
        writer.Write("Content-Length: "u8);
        writer.WriteDecimal(1234567890123);
        writer.Write("\r\n"u8);
        writer.WriteHex(0xABCDEF);
        writer.Write(Segmented.Create(Text.Bytes("multi segment"), 2, 7));
        writer.Commit();

        Assert.Equal("Content-Length: 1234567890123\r\nABCDEFmulti segment", Text.Of(output.WrittenSpan));
        Assert.Equal(output.WrittenSpan.Length, writer.BytesWritten);
        Assert.True(output.AdvanceCount > 1, "the output was advanced once per span");
    }

    /// <summary>A write larger than the first span continues into new spans.</summary>
    [Fact]
    public void Write_LargerThanSpan_Continues()
    {
        var data = new byte[100_000];
        new Random(7).NextBytes(data);
        var output = new ArrayBufferWriter<byte>(16);
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(output, 16);
        writer.Write(data);
        writer.Commit();

        Assert.Equal(data, output.WrittenSpan.ToArray());
    }
}
