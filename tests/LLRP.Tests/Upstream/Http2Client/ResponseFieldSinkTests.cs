using System.Text;
using LLRP.Upstream.Http2Client;

namespace LLRP.Tests.Upstream.Http2Client;

/// <summary>The rules of RFC 9113 §8 on a response's field block, as <see cref="ResponseFieldSink"/> applies them field by field.</summary>
public sealed class ResponseFieldSinkTests
{
    [Fact]
    public void Head_StatusThenFields_RenderedForRawModeRules_Rfc9113_8_3_2()
    {
        var stream = new Http2ClientStream();
        var sink = Decode(stream, trailers: false, (":status", "200"), ("content-type", "text/plain"), ("content-length", "2"));

        var head = stream.Head.Parse(16 * 1024);

        Assert.False(sink.Malformed);
        Assert.Equal((200, 2L), (head.StatusCode, head.ContentLength));
    }

    [Theory]
    [InlineData("content-type", "x")] // no :status before the fields
    [InlineData(":path", "/")] // a request's pseudo-header
    [InlineData(":status", "20")] // not three digits
    public void Head_WithoutStatusFirst_Malformed_Rfc9113_8_3_2(string name, string value)
    {
        var sink = Decode(new Http2ClientStream(), trailers: false, (name, value), (":status", "200"));

        Assert.True(sink.Malformed);
    }

    [Theory]
    [InlineData("Content-Type", "x")] // uppercase (§8.2.1)
    [InlineData("connection", "close")] // connection-specific (§8.2.2)
    [InlineData("transfer-encoding", "chunked")]
    [InlineData("x-bad", " padded")] // leading whitespace (§8.2.1)
    public void Head_InvalidField_Malformed_Rfc9113_8_2(string name, string value)
    {
        var sink = Decode(new Http2ClientStream(), trailers: false, (":status", "200"), (name, value));

        Assert.True(sink.Malformed);
    }

    [Fact]
    public void Trailers_FieldsKept_PseudoHeaderMalformed_Rfc9113_8_1()
    {
        var stream = new Http2ClientStream();
        var kept = Decode(stream, trailers: true, ("grpc-status", "0"), ("grpc-message", "ok"));
        var pseudo = Decode(new Http2ClientStream(), trailers: true, (":status", "200"));

        Assert.False(kept.Malformed);
        Assert.Equal([new("grpc-status", "0"), new("grpc-message", "ok")], stream.Trailers);
        Assert.True(pseudo.Malformed);
    }

    private static ResponseFieldSink Decode(Http2ClientStream stream, bool trailers, params (string Name, string Value)[] fields)
    {
        var sink = new ResponseFieldSink();
        sink.Begin(stream, trailers);
        foreach (var (name, value) in fields)
        {
            sink.OnHeader(Encoding.Latin1.GetBytes(name), Encoding.Latin1.GetBytes(value));
        }

        sink.End();
        return sink;
    }
}
