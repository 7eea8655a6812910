using System.Buffers;
using System.Text;
using LLRP.Http2.Codec;
using LLRP.Upstream.Http2Client;

namespace LLRP.Tests.Upstream.Http2Client;

/// <summary>A request's field block as <see cref="RequestFieldBlock"/> encodes it, decoded back by the codec's <see cref="HpackDecoder"/>.</summary>
public sealed class RequestFieldBlockTests
{
    [Fact]
    public void PseudoHeadersFirst_HostAsAuthority_ConnectionSpecificDropped_Rfc9113_8_3_1_And_8_2_2()
    {
        var output = new ArrayBufferWriter<byte>();
        var block = new RequestFieldBlock(output);
        block.Begin("POST"u8, https: false, "/echo?x=1"u8);
        block.Field("Host"u8, "origin:8080"u8);
        block.Field("Connection"u8, "keep-alive"u8);
        block.Field("Keep-Alive"u8, "timeout=5"u8);
        block.Field("TE"u8, "gzip"u8);
        block.Field("te"u8, "trailers"u8);
        block.Field("X-Custom"u8, "1"u8);
        block.ContentLength(42);

        var fields = new CollectingSink();
        new HpackDecoder(4096, 64 * 1024).Decode(output.WrittenSpan, fields);

        Assert.Equal(
        [
            (":method", "POST"), (":scheme", "http"), (":path", "/echo?x=1"), (":authority", "origin:8080"),
            ("te", "trailers"), ("x-custom", "1"), ("content-length", "42"),
        ], fields.Fields);
    }

    private sealed class CollectingSink : IHeaderSink
    {
        public List<(string, string)> Fields { get; } = [];

        public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value) => Fields.Add((Encoding.Latin1.GetString(name), Encoding.Latin1.GetString(value)));
    }
}
