using System.Buffers;
using LLRP.Http2.Codec;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http2.Codec;

/// <summary>The 9-byte frame header of RFC 9113 §4.1, written and read back over every split of its bytes.</summary>
public sealed class FrameHeaderTests
{
    public static readonly TheoryData<int, byte, byte, int> Headers = new()
    {
        { 0, 4, 1, 0 },
        { 16_384, 0, 1, 1 },
        { FrameHeader.MaxLength, 1, 0x2D, int.MaxValue },
        { 8, 6, 0, 0 },
        { 3, 0xFA, 0xFF, 0x1234_5678 },
    };

    [Theory]
    [MemberData(nameof(Headers))]
    public void WriteTo_TryRead_RoundTrip_EverySplit(int length, byte type, byte flags, int streamId)
    {
        var header = new FrameHeader(length, (Http2FrameType)type, (Http2FrameFlags)flags, streamId);
        var bytes = new byte[FrameHeader.Size];
        header.WriteTo(bytes);

        Segmented.ForEachSplit(bytes, input =>
        {
            Assert.True(FrameHeader.TryRead(input, out var read));
            Assert.Equal(header, read);
        });
    }

    [Fact]
    public void WriteTo_NetworkByteOrder()
    {
        var bytes = new byte[FrameHeader.Size];
        new FrameHeader(0x010203, Http2FrameType.Headers, Http2FrameFlags.EndHeaders | Http2FrameFlags.EndStream, 0x0A0B0C0D).WriteTo(bytes);
        Assert.Equal(HexBytes.Parse("010203 01 05 0A0B0C0D"), bytes);
    }

    /// <summary>RFC 9113 §4.1: the reserved bit "MUST be ignored when receiving".</summary>
    [Fact]
    public void TryRead_ReservedBitSet_Ignored()
    {
        Assert.True(FrameHeader.TryRead(new ReadOnlySequence<byte>(HexBytes.Parse("000004 08 00 80000003")), out var header));
        Assert.Equal(new FrameHeader(4, Http2FrameType.WindowUpdate, Http2FrameFlags.None, 3), header);
    }

    /// <summary>RFC 9113 §4.1: the reserved bit "MUST remain unset (0x00) when sending".</summary>
    [Fact]
    public void WriteTo_ReservedBit_Unset()
    {
        var bytes = new byte[FrameHeader.Size];
        new FrameHeader(0, Http2FrameType.Data, Http2FrameFlags.None, -1).WriteTo(bytes);
        Assert.Equal(HexBytes.Parse("000000 00 00 7FFFFFFF"), bytes);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(8)]
    public void TryRead_FewerThanNineBytes_False(int available)
    {
        Segmented.ForEachSplit(new byte[available], input => Assert.False(FrameHeader.TryRead(input, out _)));
    }

    [Fact]
    public void TryRead_MoreThanNineBytes_ReadsTheFirstNine()
    {
        Assert.True(FrameHeader.TryRead(new ReadOnlySequence<byte>(HexBytes.Parse("000008 06 01 00000000 0102030405060708")), out var header));
        Assert.Equal(new FrameHeader(8, Http2FrameType.Ping, Http2FrameFlags.Ack, 0), header);
    }

    [Fact]
    public void WriteTo_LengthAbove24Bits_Throws()
        => Assert.Throws<ArgumentOutOfRangeException>(() => new FrameHeader(FrameHeader.MaxLength + 1, Http2FrameType.Data, Http2FrameFlags.None, 1).WriteTo(new byte[FrameHeader.Size]));
}
