using System.Buffers;
using LLRP.Http1;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http1;

/// <summary>How every mode frames a response for the client (RFC 9112 §6.3, §9.3).</summary>
public sealed class ResponseFramingTests
{
    /// <summary>RFC 9110 §9.3.2, §15.3.5, §15.4.5: HEAD, 204 and 304 end with their head; otherwise the downstream's length, else chunked to HTTP/1.1 and close-delimited to HTTP/1.0.</summary>
    [Theory]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", false, false, true, "ContentLength", false, false)]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", true, false, true, "None", false, false)]
    [InlineData("HTTP/1.1 204 No Content\r\n\r\n", false, false, true, "None", false, false)]
    [InlineData("HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n", false, false, true, "None", false, false)]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", false, false, true, "Chunked", false, false)]
    [InlineData("HTTP/1.1 200 OK\r\n\r\n", false, false, true, "Chunked", false, false)]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", false, true, true, "CloseDelimited", true, false)]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", false, true, true, "ContentLength", false, true)]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", false, false, false, "ContentLength", true, false)]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", false, true, false, "ContentLength", true, false)]
    public void For_EveryCase(string response, bool isHead, bool isHttp10, bool persistent, string body, bool close, bool http10KeepAlive)
    {
        var head = new ResponseHead();
        Assert.True(ResponseHeadParser.TryParse(new ReadOnlySequence<byte>(Text.Bytes(response)), head, ResponseSnapshot.MaxHeadSize, out _));

        Assert.Equal(new ResponseFraming(Enum.Parse<BodyFraming>(body), close, http10KeepAlive), ResponseFraming.For(head, isHead, isHttp10, persistent));
    }
}
