using System.Buffers;
using LLRP.Http1;
using LLRP.Http1.Transforms;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http1;

/// <summary>The response head sent to the client (RFC 9110 §7.6, RFC 9112 §6): exact bytes.</summary>
public sealed class ResponseHeadWriterTests
{
    private const string Upstream =
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nConnection: keep-alive, X-Hop\r\nKeep-Alive: timeout=5\r\n"
        + "X-Hop: 1\r\nProxy-Connection: keep-alive\r\nUpgrade: h2c\r\nServer: s\r\n\r\n";

    /// <summary>RFC 9110 §7.6.1: Connection, the fields it names, Keep-Alive, Proxy-Connection and Upgrade are removed; Content-Length is re-sent.</summary>
    [Fact]
    public void Write_HopByHopFieldsRemoved()
        => Assert.Equal(
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nServer: s\r\nContent-Length: 5\r\n\r\n",
            Write(Upstream, BodyFraming.ContentLength, close: false, http10KeepAlive: false));

    /// <summary>RFC 9112 §6.1: a chunked upstream body, or a close-delimited one re-framed for an HTTP/1.1 client, goes out chunked.</summary>
    [Theory]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nServer: s\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nServer: s\r\n\r\n")]
    [InlineData("HTTP/1.0 200 OK\r\nServer: s\r\n\r\n")]
    public void Write_Chunked(string upstream)
        => Assert.Equal(
            "HTTP/1.1 200 OK\r\nServer: s\r\nTransfer-Encoding: chunked\r\n\r\n",
            Write(upstream, BodyFraming.Chunked, close: false, http10KeepAlive: false));

    /// <summary>RFC 9112 §9.6: the proxy says "close" when it will close; RFC 9112 §9.3 / RFC 9112 Appendix C.2.2: "keep-alive" to a persistent HTTP/1.0 client.</summary>
    [Theory]
    [InlineData(true, false, "Connection: close\r\n")]
    [InlineData(true, true, "Connection: close\r\n")]
    [InlineData(false, true, "Connection: keep-alive\r\n")]
    [InlineData(false, false, "")]
    public void Write_Persistence(bool close, bool http10KeepAlive, string connection)
        => Assert.Equal(
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nServer: s\r\nContent-Length: 5\r\n" + connection + "\r\n",
            Write(Upstream, BodyFraming.ContentLength, close, http10KeepAlive));

    /// <summary>RFC 9112 §6.3 rule 8 for an HTTP/1.0 client: the body ends at close, so no framing field is sent.</summary>
    [Fact]
    public void Write_CloseDelimited_NoFraming()
        => Assert.Equal(
            "HTTP/1.1 200 OK\r\nServer: s\r\nConnection: close\r\n\r\n",
            Write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nServer: s\r\n\r\n", BodyFraming.CloseDelimited, close: true, http10KeepAlive: false));

    /// <summary>RFC 9110 §8.6: a server MUST NOT send Content-Length in a 204 response.</summary>
    [Fact]
    public void Write_NoContent_NeverContentLength()
        => Assert.Equal(
            "HTTP/1.1 204 No Content\r\nServer: s\r\n\r\n",
            Write("HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nServer: s\r\n\r\n", BodyFraming.None, close: false, http10KeepAlive: false));

    /// <summary>RFC 9110 §8.6: a response to HEAD and a 304 may carry the Content-Length the body would have had; no body follows.</summary>
    [Theory]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")]
    [InlineData("HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\nContent-Length: 100\r\n\r\n", "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\nContent-Length: 100\r\n\r\n")]
    public void Write_Bodyless_KeepsContentLength(string upstream, string expected)
        => Assert.Equal(expected, Write(upstream, BodyFraming.None, close: false, http10KeepAlive: false));

    /// <summary>RFC 9110 §6.2: the proxy speaks HTTP/1.1 to the client whatever the upstream version; RFC 9112 §4: the SP before an empty reason stays.</summary>
    [Theory]
    [InlineData("HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n")]
    public void Write_StatusLine(string upstream, string expected)
        => Assert.Equal(expected, Write(upstream, BodyFraming.ContentLength, close: false, http10KeepAlive: false));

    /// <summary>RFC 9110 §15.2: interim responses are forwarded with their fields, without framing (a 1xx has no body).</summary>
    [Theory]
    [InlineData("HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 100 Continue\r\n\r\n")]
    [InlineData("HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\nConnection: X-Hop\r\nX-Hop: 1\r\n\r\n", "HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n")]
    public void WriteInterim(string upstream, string expected)
    {
        var head = Parse(upstream);
        var output = new ArrayBufferWriter<byte>();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(output, 0);
        ResponseHeadWriter.WriteInterim(ref writer, head);
        writer.Commit();

        Assert.Equal(expected, Text.Of(output.WrittenSpan));
    }

    /// <summary>RFC 9110 §15.2.2: a 101 that opens a tunnel keeps Connection: upgrade and its Upgrade, drops the other hop-by-hop fields, and has no framing.</summary>
    [Fact]
    public void WriteSwitchingProtocols_KeepsUpgradeFields()
    {
        var head = Parse("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade, X-Hop\r\nX-Hop: 1\r\nUpgrade: websocket\r\nKeep-Alive: timeout=5\r\nSec-WebSocket-Accept: a\r\n\r\n");
        var output = new ArrayBufferWriter<byte>();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(output, 0);
        ResponseHeadWriter.WriteSwitchingProtocols(ref writer, head);
        writer.Commit();

        Assert.Equal(
            "HTTP/1.1 101 Switching Protocols\r\nSec-WebSocket-Accept: a\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n",
            Text.Of(output.WrittenSpan));
    }

    private static ResponseHead Parse(string response)
    {
        var head = new ResponseHead();
        Assert.True(ResponseHeadParser.TryParse(new ReadOnlySequence<byte>(Text.Bytes(response)), head, ResponseSnapshot.MaxHeadSize, out _));
        return head;
    }

    private static string Write(string upstream, BodyFraming bodyFraming, bool close, bool http10KeepAlive)
    {
        var head = Parse(upstream);
        var output = new ArrayBufferWriter<byte>();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(output, 0);
        ResponseHeadWriter.Write(ref writer, head, new ResponseFraming(bodyFraming, close, http10KeepAlive), ResponseTransforms.None);
        writer.Commit();
        return Text.Of(output.WrittenSpan);
    }
}
