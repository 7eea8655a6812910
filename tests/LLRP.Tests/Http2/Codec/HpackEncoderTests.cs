using System.Buffers;
using System.Text;
using LLRP.Http2.Codec;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http2.Codec;

/// <summary>The stateless response encoder: its bytes as RFC 7541 spells them, and what the decoder reads back.</summary>
public sealed class HpackEncoderTests
{
    /// <summary>RFC 7541 §6.1, Appendix A: the statuses of static entries 8 to 14 are one indexed byte.</summary>
    [Theory]
    [InlineData(200, "88")]
    [InlineData(204, "89")]
    [InlineData(304, "8b")]
    [InlineData(500, "8e")]
    public void EncodeStatus_StaticEntry_Section6_1_OneIndexedByte(int status, string hex)
    {
        var output = new ArrayBufferWriter<byte>();

        HpackEncoder.EncodeStatus(output, status);

        Assert.Equal(HexBytes.Parse(hex), output.WrittenSpan.ToArray());
    }

    /// <summary>RFC 7541 §6.2.2: another status is a literal without indexing naming static entry 8, its value raw.</summary>
    [Fact]
    public void EncodeStatus_Other_Section6_2_2_LiteralWithStaticName()
    {
        var output = new ArrayBufferWriter<byte>();

        HpackEncoder.EncodeStatus(output, 431);

        Assert.Equal(HexBytes.Parse("08 03 343331"), output.WrittenSpan.ToArray());
    }

    /// <summary>RFC 7541 §6.2.2: a field named in Appendix A carries its index; another, its lowercase name; both decode back, and nothing enters the dynamic table.</summary>
    [Fact]
    public void EncodeField_StaticAndNewNames_Section6_2_2_DecodeBack()
    {
        var output = new ArrayBufferWriter<byte>();
        HpackEncoder.EncodeStatus(output, 404);
        HpackEncoder.EncodeField(output, "content-type"u8, "text/plain"u8);
        HpackEncoder.EncodeField(output, "X-Trace"u8, Encoding.Latin1.GetBytes(new string('v', 300)));
        var decoder = new HpackDecoder(4096, int.MaxValue);
        var recorder = new HeaderRecorder();

        decoder.Decode(output.WrittenSpan, recorder);

        Assert.Equal(0x0f, output.WrittenSpan[1]);
        Assert.Equal([":status: 404", "content-type: text/plain", $"x-trace: {new string('v', 300)}"], recorder.Fields);
        Assert.Equal(0, decoder.DynamicTable.Count);
    }
}
