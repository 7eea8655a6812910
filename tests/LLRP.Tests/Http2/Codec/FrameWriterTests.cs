using System.Buffers;
using LLRP.Http2.Codec;
using LLRP.Testing;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http2.Codec;

/// <summary>Frames of RFC 9113 §6 as <see cref="FrameWriter"/> writes them, byte for byte.</summary>
public sealed class FrameWriterTests
{
    [Fact]
    public void WriteSettings_SixBytesPerSetting_Section6_5_1()
    {
        var output = new ArrayBufferWriter<byte>();
        FrameWriter.WriteSettings(output, [(3, 100), (4, 0x7FFF_FFFF), (6, 16_384)]);
        Assert.Equal(HexBytes.Parse("000012 04 00 00000000  0003 00000064  0004 7FFFFFFF  0006 00004000"), output.WrittenSpan.ToArray());
    }

    [Fact]
    public void WriteSettingsAck_EmptyWithAckFlag_Section6_5()
    {
        var output = new ArrayBufferWriter<byte>();
        FrameWriter.WriteSettingsAck(output);
        Assert.Equal(HexBytes.Parse("000000 04 01 00000000"), output.WrittenSpan.ToArray());
    }

    [Fact]
    public void WritePing_EightBytes_Section6_7()
    {
        var output = new ArrayBufferWriter<byte>();
        FrameWriter.WritePing(output, ack: false, 0x0102_0304_0506_0708UL);
        FrameWriter.WritePing(output, ack: true, HexBytes.Parse("1112131415161718"));
        Assert.Equal(HexBytes.Parse("000008 06 00 00000000 0102030405060708  000008 06 01 00000000 1112131415161718"), output.WrittenSpan.ToArray());
    }

    [Fact]
    public void WritePing_NotEightBytes_Throws()
        => Assert.Throws<ArgumentOutOfRangeException>(() => FrameWriter.WritePing(new ArrayBufferWriter<byte>(), ack: true, new byte[7]));

    [Fact]
    public void WriteGoAway_LastStreamCodeDebug_Section6_8()
    {
        var output = new ArrayBufferWriter<byte>();
        FrameWriter.WriteGoAway(output, 7, Http2ErrorCode.EnhanceYourCalm, "bye"u8);
        Assert.Equal(HexBytes.Parse("00000B 07 00 00000000 00000007 0000000B 627965"), output.WrittenSpan.ToArray());
    }

    [Fact]
    public void WriteRstStream_ErrorCode_Section6_4()
    {
        var output = new ArrayBufferWriter<byte>();
        FrameWriter.WriteRstStream(output, 5, Http2ErrorCode.RefusedStream);
        Assert.Equal(HexBytes.Parse("000004 03 00 00000005 00000007"), output.WrittenSpan.ToArray());
    }

    [Fact]
    public void WriteWindowUpdate_Increment_Section6_9()
    {
        var output = new ArrayBufferWriter<byte>();
        FrameWriter.WriteWindowUpdate(output, 0, 0x7FFF_FFFF);
        FrameWriter.WriteWindowUpdate(output, 3, 1);
        Assert.Equal(HexBytes.Parse("000004 08 00 00000000 7FFFFFFF  000004 08 00 00000003 00000001"), output.WrittenSpan.ToArray());
    }

    /// <summary>RFC 9113 §6.9: "A receiver MUST treat the receipt of a WINDOW_UPDATE frame with an increment of 0 as" an error; never sent.</summary>
    [Fact]
    public void WriteWindowUpdate_ZeroIncrement_Throws()
        => Assert.Throws<ArgumentOutOfRangeException>(() => FrameWriter.WriteWindowUpdate(new ArrayBufferWriter<byte>(), 1, 0));

    [Fact]
    public void WriteData_Span_EndStream_Section6_1()
    {
        var output = new ArrayBufferWriter<byte>();
        FrameWriter.WriteData(output, 1, "hello"u8, endStream: true);
        FrameWriter.WriteData(output, 1, [], endStream: false);
        Assert.Equal(HexBytes.Parse("000005 00 01 00000001 68656c6c6f  000000 00 00 00000001"), output.WrittenSpan.ToArray());
    }

    [Fact]
    public void WriteData_MultiSegmentSequence_OneFrame()
    {
        var first = new BufferSegment("hel"u8.ToArray(), 0);
        var last = first.Append("lo"u8.ToArray());
        var output = new ArrayBufferWriter<byte>();
        FrameWriter.WriteData(output, 3, new ReadOnlySequence<byte>(first, 0, last, 2), endStream: false);
        Assert.Equal(HexBytes.Parse("000005 00 00 00000003 68656c6c6f"), output.WrittenSpan.ToArray());
    }

    /// <summary>A writer handing out the smallest spans it may still gets whole frames.</summary>
    [Fact]
    public void WriteData_TinySpans_SameBytes()
    {
        var output = new TinySpanBufferWriter();
        FrameWriter.WriteData(output, 1, "hello"u8, endStream: true);
        Assert.Equal(HexBytes.Parse("000005 00 01 00000001 68656c6c6f"), output.WrittenSpan.ToArray());
    }

    [Fact]
    public void WriteHeaders_FitsOneFrame_EndHeaders_Section6_2()
    {
        var output = new ArrayBufferWriter<byte>();
        FrameWriter.WriteHeaders(output, 1, HexBytes.Parse("8286"), endStream: true, maxFrameSize: 16_384);
        Assert.Equal(HexBytes.Parse("000002 01 05 00000001 8286"), output.WrittenSpan.ToArray());
    }

    /// <summary>
    /// RFC 9113 §6.10: a field block larger than the frame size goes on in CONTINUATION frames; END_HEADERS is set on
    /// the last frame only, END_STREAM only on HEADERS (§6.2), each payload at most the peer's maximum frame size (§4.2).
    /// </summary>
    [Theory]
    [InlineData(10, 3, true)]
    [InlineData(9, 3, false)]
    [InlineData(1, 1, true)]
    [InlineData(16_385, 16_384, false)]
    public void WriteHeaders_LargerThanMaxFrameSize_SplitsIntoContinuation(int blockLength, int maxFrameSize, bool endStream)
    {
        var block = Enumerable.Range(0, blockLength).Select(i => (byte)i).ToArray();
        var output = new ArrayBufferWriter<byte>();
        FrameWriter.WriteHeaders(output, 9, block, endStream, maxFrameSize);

        var frames = ReadFrames(output.WrittenMemory);
        var expectedCount = (blockLength + maxFrameSize - 1) / maxFrameSize;
        Assert.Equal(expectedCount, frames.Count);
        for (var i = 0; i < frames.Count; i++)
        {
            var (header, _) = frames[i];
            Assert.Equal(i == 0 ? Http2FrameType.Headers : Http2FrameType.Continuation, header.Type);
            var expectedFlags = (i == 0 && endStream ? Http2FrameFlags.EndStream : Http2FrameFlags.None)
                | (i == frames.Count - 1 ? Http2FrameFlags.EndHeaders : Http2FrameFlags.None);
            Assert.Equal(expectedFlags, header.Flags);
            Assert.Equal(9, header.StreamId);
            Assert.Equal(Math.Min(maxFrameSize, blockLength - i * maxFrameSize), header.Length);
        }

        Assert.Equal(block, frames.SelectMany(frame => frame.Payload).ToArray());
    }

    [Fact]
    public void WriteHeaders_EmptyBlock_OneHeadersFrame()
    {
        var output = new ArrayBufferWriter<byte>();
        FrameWriter.WriteHeaders(output, 1, [], endStream: false, maxFrameSize: 16_384);
        Assert.Equal(HexBytes.Parse("000000 01 04 00000001"), output.WrittenSpan.ToArray());
    }

    private static List<(FrameHeader Header, byte[] Payload)> ReadFrames(ReadOnlyMemory<byte> bytes)
    {
        var frames = new List<(FrameHeader, byte[])>();
        while (!bytes.IsEmpty)
        {
            Assert.True(FrameHeader.TryRead(new ReadOnlySequence<byte>(bytes), out var header));
            frames.Add((header, bytes.Slice(FrameHeader.Size, header.Length).ToArray()));
            bytes = bytes[(FrameHeader.Size + header.Length)..];
        }

        return frames;
    }
}
