using System.Buffers;
using LLRP.Configuration.Routes;
using LLRP.Http1;
using LLRP.Http1.Transforms;
using LLRP.Http2.Codec;
using LLRP.Http2.Server;
using LLRP.Tests.Http1;
using LLRP.Tests.Infrastructure;
using LLRP.Upstream.HttpClient;
using Microsoft.AspNetCore.Http;

namespace LLRP.Tests.Http2.Codec;

/// <summary>
/// An HTTP/1.1 response head's fields HPACK-encoded from its bytes (<see cref="HpackFieldSink"/> behind
/// <see cref="ResponseHeadWriter.WriteFields"/>), checked through <see cref="HpackDecoder"/> (RFC 7541) and against the
/// encoding of the same fields held as strings.
/// </summary>
public sealed class HpackFieldSinkTests
{
    /// <summary>
    /// RFC 9113 §8.2.2 and RFC 9110 §7.6.1: Connection, the fields it names, Keep-Alive, Proxy-Connection, Upgrade, TE and
    /// Transfer-Encoding are left out; repeated fields (Set-Cookie, RFC 9110 §5.3) stay separate lines in their order;
    /// names are lowercase (RFC 9113 §8.2.1); nothing enters the dynamic table.
    /// </summary>
    [Fact]
    public void WriteFields_ConnectionSpecificLeftOut_DecodesBackToTheOthers_Rfc9113Section8_2_2()
    {
        var head = Parse(
            "HTTP/1.1 200 OK\r\nConnection: keep-alive, X-Hop\r\nSet-Cookie: a=1; Path=/\r\nKeep-Alive: timeout=5\r\nX-Hop: 1\r\n"
            + "Cache-Control: no-cache\r\nProxy-Connection: keep-alive\r\nUpgrade: h2c\r\nTE: trailers\r\nSet-Cookie: b=2\r\n"
            + "Transfer-Encoding: chunked\r\nServer: s\r\nX-Custom-Name: Mixed Case Value\r\n\r\n");

        var fields = Decode(Encode(head, ResponseTransforms.None));

        Assert.Equal(
            [":status: 200", "set-cookie: a=1; Path=/", "cache-control: no-cache", "set-cookie: b=2", "server: s", "x-custom-name: Mixed Case Value"],
            fields);
    }

    /// <summary>RFC 9113 §8.2.2: a connection-specific field given to the sink directly (a response transform's) is left out too, in any case.</summary>
    [Theory]
    [InlineData("Connection")]
    [InlineData("keep-alive")]
    [InlineData("Proxy-Connection")]
    [InlineData("TRANSFER-ENCODING")]
    [InlineData("Upgrade")]
    [InlineData("te")]
    public void Field_ConnectionSpecific_LeftOut(string name)
    {
        var block = new ArrayBufferWriter<byte>();
        var sink = new HpackFieldSink(block);

        sink.Field(Text.Bytes(name), "x"u8);
        sink.Field("x-kept"u8, "y"u8);

        Assert.Equal(["x-kept: y"], Decode(block));
    }

    /// <summary>A route's response transforms act on the byte path as on the others: a field removed, one set, one appended; a connection-specific one added is left out.</summary>
    [Fact]
    public void WriteFields_Transforms_Applied()
    {
        var transforms = new ResponseTransforms(
        [
            new HeaderStep(TransformAction.Remove, Text.Bytes("Server"), [], ResponseCondition.Always),
            new HeaderStep(TransformAction.Set, Text.Bytes("X-Route"), Text.Bytes("r"), ResponseCondition.Always),
            new HeaderStep(TransformAction.Append, Text.Bytes("Connection"), Text.Bytes("close"), ResponseCondition.Always),
            new HeaderStep(TransformAction.Append, Text.Bytes("X-Failed"), Text.Bytes("1"), ResponseCondition.Failure),
        ]);

        var fields = Decode(Encode(Parse("HTTP/1.1 200 OK\r\nServer: s\r\nX-Route: old\r\nContent-Type: text/plain\r\n\r\n"), transforms));

        Assert.Equal([":status: 200", "content-type: text/plain", "x-route: r"], fields);
    }

    /// <summary>RFC 7541 §6.2.2: content-length as a literal without indexing naming static entry 28 (Appendix A).</summary>
    [Theory]
    [InlineData(0L, "0f0d 01 30")]
    [InlineData(12L, "0f0d 02 3132")]
    [InlineData(long.MaxValue, "0f0d 13 39323233333732303336383534373735383037")]
    public void ContentLength_StaticName28(long length, string hex)
    {
        var block = new ArrayBufferWriter<byte>();
        new HpackFieldSink(block).ContentLength(length);

        Assert.Equal(HexBytes.Parse(hex), block.WrittenSpan.ToArray());
        Assert.Equal([$"content-length: {length}"], Decode(block));
    }

    /// <summary>The session affinity's binding, kept as whole field lines, reaches the sink line by line.</summary>
    [Fact]
    public void FieldLineSplit_EachLineToTheSink()
    {
        var block = new ArrayBufferWriter<byte>();
        var sink = new HpackFieldSink(block);

        FieldLine.Split("Set-Cookie: .aff=d1; Path=/\r\nX-Two:  2 \r\n"u8, ref sink);

        Assert.Equal(["set-cookie: .aff=d1; Path=/", "x-two: 2"], Decode(block));
    }

    /// <summary>A typical destination's head gives the same bytes from its bytes as through an <see cref="HttpResponse"/>'s headers (<see cref="ResponseFieldEncoding"/>).</summary>
    [Fact]
    public void WriteFields_SameBytesAsTheStringPath()
    {
        var head = Parse(
            "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Sat, 28 Nov 2026 13:05:03 GMT\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n"
            + "Last-Modified: Sat, 28 Nov 2026 12:00:00 GMT\r\nConnection: keep-alive\r\nETag: \"6569-a\"\r\nAccept-Ranges: bytes\r\n\r\n");

        var fromBytes = Encode(head, ResponseTransforms.None);
        var headers = new HeaderDictionary();
        var strings = new HeaderDictionarySink(headers, new FieldStringCache());
        ResponseHeadWriter.WriteFields(head, ResponseTransforms.None, ref strings);
        headers.ContentLength = head.ContentLength;
        var fromStrings = new ArrayBufferWriter<byte>();
        HpackEncoder.EncodeStatus(fromStrings, head.StatusCode);
        ResponseFieldEncoding.Encode(fromStrings, headers);

        Assert.Equal(fromStrings.WrittenSpan.ToArray(), fromBytes.WrittenSpan.ToArray());
        Assert.Contains("content-length: 10", Decode(fromBytes));
    }

    private static ArrayBufferWriter<byte> Encode(ResponseHead head, ResponseTransforms transforms)
    {
        var block = new ArrayBufferWriter<byte>();
        HpackEncoder.EncodeStatus(block, head.StatusCode);
        var sink = new HpackFieldSink(block);
        ResponseHeadWriter.WriteFields(head, transforms, ref sink);
        if (head.Framing == BodyFraming.ContentLength)
        {
            sink.ContentLength(head.ContentLength);
        }

        return block;
    }

    private static List<string> Decode(ArrayBufferWriter<byte> block)
    {
        var decoder = new HpackDecoder(4096, int.MaxValue);
        var recorder = new HeaderRecorder();
        decoder.Decode(block.WrittenSpan, recorder);
        Assert.Equal(0, decoder.DynamicTable.Count);
        return recorder.Fields;
    }

    private static ResponseHead Parse(string response)
    {
        var head = new ResponseHead();
        Assert.True(ResponseHeadParser.TryParse(new ReadOnlySequence<byte>(Text.Bytes(response)), head, ResponseSnapshot.MaxHeadSize, out _));
        return head;
    }
}
