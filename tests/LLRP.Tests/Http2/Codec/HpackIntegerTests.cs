using System.Buffers;
using LLRP.Http2.Codec;

namespace LLRP.Tests.Http2.Codec;

/// <summary>The integer representation of RFC 7541 §5.1.</summary>
public sealed class HpackIntegerTests
{
    /// <summary>RFC 7541 Appendix C.1.1 to C.1.3, and the edges of each prefix.</summary>
    [Theory]
    [InlineData(5, 10, "0a")]
    [InlineData(5, 1337, "1f9a0a")]
    [InlineData(8, 42, "2a")]
    [InlineData(5, 30, "1e")]
    [InlineData(5, 31, "1f00")]
    [InlineData(7, 127, "7f00")]
    [InlineData(7, 254, "7f7f")]
    [InlineData(7, 255, "7f8001")]
    [InlineData(4, int.MaxValue, "0ff0ffffff07")]
    public void WriteRead_RoundTrip_AppendixC1(int prefixBits, int value, string hex)
    {
        var output = new ArrayBufferWriter<byte>();
        HpackInteger.Write(output, 0, prefixBits, value);
        Assert.Equal(HexBytes.Parse(hex), output.WrittenSpan.ToArray());

        var position = 0;
        Assert.Equal(value, HpackInteger.Read(HexBytes.Parse(hex), ref position, prefixBits));
        Assert.Equal(output.WrittenCount, position);
    }

    [Fact]
    public void Write_KeepsPatternBits()
    {
        var output = new ArrayBufferWriter<byte>();
        HpackInteger.Write(output, 0x80, 7, 2);
        HpackInteger.Write(output, 0x40, 6, 100);
        Assert.Equal(HexBytes.Parse("82 7f25"), output.WrittenSpan.ToArray());
    }

    /// <summary>RFC 7541 §5.1: "Integer encodings that exceed implementation limits ... MUST be treated as decoding errors".</summary>
    [Theory]
    [InlineData(4, "0ff1ffffff07")]
    [InlineData(7, "7fffffffff0f")]
    [InlineData(5, "1f8080808080808000")]
    [InlineData(8, "ffffffffffffffffffffff7f")]
    public void Read_AboveInt32_Section5_1_Throws(int prefixBits, string hex)
        => Assert.Throws<HpackDecodingException>(() =>
        {
            var position = 0;
            HpackInteger.Read(HexBytes.Parse(hex), ref position, prefixBits);
        });

    [Theory]
    [InlineData(5, "1f")]
    [InlineData(5, "1f9a")]
    [InlineData(7, "7fffff")]
    public void Read_BlockEndsInsideInteger_Section5_1_Throws(int prefixBits, string hex)
        => Assert.Throws<HpackDecodingException>(() =>
        {
            var position = 0;
            HpackInteger.Read(HexBytes.Parse(hex), ref position, prefixBits);
        });
}
