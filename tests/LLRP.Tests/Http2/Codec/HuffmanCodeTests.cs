using LLRP.Http2.Codec;

namespace LLRP.Tests.Http2.Codec;

/// <summary>The code derived from the lengths matches RFC 7541 Appendix B, and the decoder inverts it for every symbol.</summary>
public sealed class HuffmanCodeTests
{
    /// <summary>Rows of RFC 7541 Appendix B: symbol, code as hex, length; each length from 5 to 30 bits is here.</summary>
    [Theory]
    [InlineData(0, 0x1ff8u, 13)]
    [InlineData(1, 0x7fffd8u, 23)]
    [InlineData(9, 0xffffeau, 24)]
    [InlineData(10, 0x3ffffffcu, 30)]
    [InlineData(22, 0x3ffffffeu, 30)]
    [InlineData(' ', 0x14u, 6)]
    [InlineData('!', 0x3f8u, 10)]
    [InlineData('#', 0xffau, 12)]
    [InlineData('\'', 0x7fau, 11)]
    [InlineData('0', 0x0u, 5)]
    [InlineData(':', 0x5cu, 7)]
    [InlineData('<', 0x7ffcu, 15)]
    [InlineData('X', 0xfcu, 8)]
    [InlineData('\\', 0x7fff0u, 19)]
    [InlineData('^', 0x3ffcu, 14)]
    [InlineData('a', 0x3u, 5)]
    [InlineData('z', 0x7bu, 7)]
    [InlineData('~', 0x1ffdu, 13)]
    [InlineData(127, 0xffffffcu, 28)]
    [InlineData(128, 0xfffe6u, 20)]
    [InlineData(153, 0x1fffdcu, 21)]
    [InlineData(199, 0x1ffffecu, 25)]
    [InlineData(192, 0x3ffffe0u, 26)]
    [InlineData(203, 0x7ffffdeu, 27)]
    [InlineData(255, 0x3ffffeeu, 26)]
    [InlineData(HuffmanCode.Eos, 0x3fffffffu, 30)]
    public void Codes_MatchAppendixB(int symbol, uint code, int length)
    {
        Assert.Equal(length, HuffmanCode.Length(symbol));
        Assert.Equal(code, HuffmanCode.Codes()[symbol]);
    }

    [Fact]
    public void Decode_EverySymbol_RoundTrips()
    {
        var all = Enumerable.Range(0, 256).Select(i => (byte)i).ToArray();
        var encoded = HuffmanTestEncoder.Encode(all);
        var decoded = new byte[HuffmanDecoder.MaxDecodedLength(encoded.Length)];
        Assert.Equal(all, decoded[..HuffmanDecoder.Decode(encoded, decoded)]);
    }

    /// <summary>RFC 7541 Appendix C.4.1: "www.example.com".</summary>
    [Fact]
    public void Decode_AppendixC4_1_String()
    {
        var encoded = HexBytes.Parse("f1e3 c2e5 f23a 6ba0 ab90 f4ff");
        var decoded = new byte[HuffmanDecoder.MaxDecodedLength(encoded.Length)];
        Assert.Equal("www.example.com"u8.ToArray(), decoded[..HuffmanDecoder.Decode(encoded, decoded)]);
    }

    /// <summary>The shortest codes (5 bits) decode to the most bytes: 8 per 5 input bytes.</summary>
    [Fact]
    public void Decode_ShortestCodes_FillMaxDecodedLength()
    {
        var zeros = "00000000"u8.ToArray();
        var encoded = HuffmanTestEncoder.Encode(zeros);
        Assert.Equal(5, encoded.Length);
        var decoded = new byte[HuffmanDecoder.MaxDecodedLength(encoded.Length)];
        Assert.Equal(zeros, decoded[..HuffmanDecoder.Decode(encoded, decoded)]);
    }
}
