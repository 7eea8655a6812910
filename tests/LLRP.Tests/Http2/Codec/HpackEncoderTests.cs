using System.Buffers;
using LLRP.Http2.Codec;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http2.Codec;

/// <summary>The response encoder, checked byte for byte and through <see cref="HpackDecoder"/>.</summary>
public sealed class HpackEncoderTests
{
    /// <summary>Every status: indexed static entries 8 to 14 (RFC 7541 Appendix A) or a literal with name index 8, and it decodes back.</summary>
    [Fact]
    public void EncodeStatus_100To599_RoundTrips()
    {
        var decoder = new HpackDecoder(4096, int.MaxValue);
        for (var status = 100; status <= 599; status++)
        {
            var output = new ArrayBufferWriter<byte>();
            HpackEncoder.EncodeStatus(output, status);
            var recorder = new HeaderRecorder();
            decoder.Decode(output.WrittenSpan, recorder);
            Assert.Equal([$":status: {status}"], recorder.Fields);
            Assert.Equal(status is 200 or 204 or 206 or 304 or 400 or 404 or 500 ? 1 : 5, output.WrittenCount);
        }

        Assert.Equal(0, decoder.DynamicTable.Count);
    }

    [Theory]
    [InlineData(200, "88")]
    [InlineData(500, "8e")]
    [InlineData(302, "08 03 333032")]
    public void EncodeStatus_Bytes_Section6(int status, string hex)
    {
        var output = new ArrayBufferWriter<byte>();
        HpackEncoder.EncodeStatus(output, status);
        Assert.Equal(HexBytes.Parse(hex), output.WrittenSpan.ToArray());
    }

    [Theory]
    [InlineData(99)]
    [InlineData(1000)]
    public void EncodeStatus_NotThreeDigits_Throws(int status)
        => Assert.Throws<ArgumentOutOfRangeException>(() => HpackEncoder.EncodeStatus(new ArrayBufferWriter<byte>(), status));

    /// <summary>RFC 7541 §6.2.2: a literal without indexing; a static name by index (content-type is 31), another name as a literal.</summary>
    [Theory]
    [InlineData("content-type", "text/plain", "0f10 0a 746578742f706c61696e")]
    [InlineData("age", "1", "0f06 01 31")]
    [InlineData("x-a", "", "00 03 782d61 00")]
    [InlineData("X-A", "b", "00 03 782d61 01 62")]
    [InlineData("Content-Type", "x", "0f10 01 78")]
    public void EncodeField_Bytes_Section6_2_2(string name, string value, string hex)
    {
        var output = new ArrayBufferWriter<byte>();
        HpackEncoder.EncodeField(output, Text.Bytes(name), Text.Bytes(value));
        Assert.Equal(HexBytes.Parse(hex), output.WrittenSpan.ToArray());
    }

    /// <summary>Names in and out of the static table, any case, values past 127 bytes (multi-byte lengths, RFC 7541 §5.1), through the decoder.</summary>
    [Theory]
    [InlineData("content-length", "12")]
    [InlineData("Set-Cookie", "a=b")]
    [InlineData("www-authenticate", "")]
    [InlineData("x-custom-header", "value")]
    [InlineData("X-Upper", "V")]
    [InlineData("server", 127)]
    [InlineData("x-long", 128)]
    [InlineData("x-longer", 20_000)]
    public void EncodeField_DecodesBack(string name, object value)
    {
        var text = value as string ?? new string('v', (int)value);
        var output = new TinySpanBufferWriter();
        HpackEncoder.EncodeStatus(output, 200);
        HpackEncoder.EncodeField(output, Text.Bytes(name), Text.Bytes(text));
        var decoder = new HpackDecoder(4096, int.MaxValue);
        var recorder = new HeaderRecorder();
        decoder.Decode(output.WrittenSpan, recorder);
        Assert.Equal([":status: 200", $"{name.ToLowerInvariant()}: {text}"], recorder.Fields);
        Assert.Equal(0, decoder.DynamicTable.Count);
    }

    /// <summary>A field held as strings is encoded as its Latin-1 bytes are, within the scratch and past it (rented).</summary>
    [Theory]
    [InlineData("Content-Type", "text/plain")]
    [InlineData("X-Trailer", "caf\u00e9")]
    [InlineData("x-long", null)]
    public void EncodeField_Strings_SameAsTheirBytes(string name, string? value)
    {
        value ??= new string('v', 100);
        var fromBytes = new ArrayBufferWriter<byte>();
        HpackEncoder.EncodeField(fromBytes, System.Text.Encoding.Latin1.GetBytes(name), System.Text.Encoding.Latin1.GetBytes(value));
        var fromStrings = new ArrayBufferWriter<byte>();
        HpackEncoder.EncodeField(fromStrings, name, value, stackalloc byte[32]);
        Assert.Equal(fromBytes.WrittenSpan.ToArray(), fromStrings.WrittenSpan.ToArray());
    }

    [Fact]
    public void EncodeField_LongName_MultiByteLength()
    {
        var name = new string('n', 300);
        var output = new ArrayBufferWriter<byte>();
        HpackEncoder.EncodeField(output, Text.Bytes(name), "v"u8);
        var recorder = new HeaderRecorder();
        new HpackDecoder(4096, int.MaxValue).Decode(output.WrittenSpan, recorder);
        Assert.Equal([$"{name}: v"], recorder.Fields);
    }

    /// <summary>
    /// A name with a byte past ASCII keeps its every byte and its length (found by the hpack fuzzing target): lowercasing
    /// stops at nothing, only A-Z change.
    /// </summary>
    [Fact]
    public void EncodeField_NonAsciiName_EveryByteKept()
    {
        byte[] name = [(byte)'X', 0xC3, (byte)'A', 0xFF, (byte)'z'];
        var output = new ArrayBufferWriter<byte>();
        HpackEncoder.EncodeField(output, name, "v"u8);
        HpackEncoder.EncodeField(output, "next"u8, "w"u8);

        var sink = new RawSink();
        new HpackDecoder(4096, int.MaxValue).Decode(output.WrittenSpan, sink);

        Assert.Equal([(byte)'x', 0xC3, (byte)'a', 0xFF, (byte)'z'], sink.Names[0]);
        Assert.Equal("next"u8.ToArray(), sink.Names[1]);
    }

    private sealed class RawSink : IHeaderSink
    {
        public List<byte[]> Names { get; } = [];

        public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value) => Names.Add(name.ToArray());
    }
}
