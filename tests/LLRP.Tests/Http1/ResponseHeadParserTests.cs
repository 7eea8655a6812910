using System.Buffers;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http1;

/// <summary>Response heads (RFC 9112 §4–§6) from the downstream, each parsed over every split into segments.</summary>
public sealed class ResponseHeadParserTests
{
    /// <summary>RFC 9112 §4: status-line = HTTP-version SP status-code SP [ reason-phrase ].</summary>
    [Theory]
    [InlineData("HTTP/1.1 200 OK", 200, "OK", false)]
    [InlineData("HTTP/1.1 404 Not Found", 404, "Not Found", false)]
    [InlineData("HTTP/1.1 200 ", 200, "", false)]
    [InlineData("HTTP/1.1 200", 200, "", false)]
    [InlineData("HTTP/1.1 599 a\tb \u00e9", 599, "a\tb \u00e9", false)]
    [InlineData("HTTP/1.0 200 OK", 200, "OK", true)]
    [InlineData("HTTP/1.2 100 Continue", 100, "Continue", false)]
    public void TryParse_StatusLine(string statusLine, int status, string reason, bool isHttp10)
    {
        var response = ResponseSnapshot.EverySplit(statusLine + "\r\nServer: s\r\n\r\n");

        Assert.Equal(status, response.StatusCode);
        Assert.Equal(reason, response.Reason);
        Assert.Equal(isHttp10, response.IsHttp10);
        Assert.Equal(statusLine.Length + 15, response.Consumed);
        Assert.Equal("Server: s [Other]", response.Fields);
    }

    /// <summary>RFC 9112 §4: status-code = 3DIGIT (RFC 9110 §15: 100–599); the version is HTTP/1.x; single SPs.</summary>
    [Theory]
    [InlineData("HTTP/1.1 20 OK")]
    [InlineData("HTTP/1.1 2000 OK")]
    [InlineData("HTTP/1.1 600 Nope")]
    [InlineData("HTTP/1.1 099 Low")]
    [InlineData("HTTP/1.1 abc OK")]
    [InlineData("HTTP/2 200 OK")]
    [InlineData("HTTP/2.0 200 OK")]
    [InlineData("http/1.1 200 OK")]
    [InlineData("HTTP/1.1200 OK")]
    [InlineData("HTTP/1.1  200 OK")]
    [InlineData("HTTP/1.1 200OK")]
    [InlineData("HTTP/1.1 200 O\u0001K")]
    [InlineData("")]
    public void TryParse_InvalidStatusLine_Throws(string statusLine)
        => Assert.Equal(RejectionReason.InvalidStatusLine, ResponseSnapshot.RejectEverySplit(statusLine + "\r\nServer: s\r\n\r\n"));

    /// <summary>RFC 9112 §6.3 rule 6: Content-Length gives the body length; the head ends at the empty line.</summary>
    [Fact]
    public void TryParse_ContentLength()
    {
        const string head = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\n";
        var response = ResponseSnapshot.EverySplit(head + "hello");

        Assert.Equal(BodyFraming.ContentLength, response.Framing);
        Assert.Equal(5, response.ContentLength);
        Assert.Equal(head.Length, response.Consumed);
        Assert.True(response.IsPersistent);
    }

    /// <summary>RFC 9112 §6.3 rule 4: chunked as the final coding frames the body.</summary>
    [Fact]
    public void TryParse_Chunked()
    {
        const string head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        var response = ResponseSnapshot.EverySplit(head + "0\r\n\r\n");

        Assert.Equal(BodyFraming.Chunked, response.Framing);
        Assert.Equal(head.Length, response.Consumed);
    }

    /// <summary>RFC 9112 §6.3 rule 8: a response with neither Content-Length nor Transfer-Encoding ends when the connection closes.</summary>
    [Theory]
    [InlineData("HTTP/1.1 200 OK\r\nServer: s\r\n\r\n")]
    [InlineData("HTTP/1.0 200 OK\r\n\r\n")]
    public void TryParse_NoFraming_CloseDelimited(string message)
        => Assert.Equal(BodyFraming.CloseDelimited, ResponseSnapshot.EverySplit(message).Framing);

    /// <summary>RFC 9112 §6.3 rule 1: a 1xx response has no body; RFC 9110 §15.2: it is interim.</summary>
    [Theory]
    [InlineData("HTTP/1.1 100 Continue\r\n\r\n")]
    [InlineData("HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n")]
    public void TryParse_Informational_NoFraming(string message)
    {
        var response = ResponseSnapshot.EverySplit(message);

        Assert.True(response.IsInterim);
        Assert.Equal(BodyFraming.None, response.Framing);
        Assert.Equal(message.Length, response.Consumed);
    }

    /// <summary>RFC 9112 §9.3: an HTTP/1.0 response persists only with keep-alive, an HTTP/1.1 one unless close.</summary>
    [Theory]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", true)]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", false)]
    [InlineData("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", false)]
    [InlineData("HTTP/1.0 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n", true)]
    public void TryParse_Persistence(string message, bool persistent)
        => Assert.Equal(persistent, ResponseSnapshot.EverySplit(message).IsPersistent);

    /// <summary>RFC 9110 §7.6.1: fields named by Connection are hop-by-hop in responses too.</summary>
    [Fact]
    public void TryParse_ConnectionOption_MarksNamedFields()
    {
        var response = ResponseSnapshot.EverySplit("HTTP/1.1 200 OK\r\nConnection: X-Hop\r\nX-Hop: 1\r\nContent-Length: 0\r\n\r\n");

        Assert.Equal("Connection: X-Hop [Connection]\nX-Hop: 1 [NamedByConnection]\nContent-Length: 0 [ContentLength]", response.Fields);
    }

    /// <summary>RFC 9112 §6.3 rule 3: both Content-Length and Transfer-Encoding "ought to be handled as an error" (response splitting).</summary>
    [Fact]
    public void TryParse_ContentLengthAndTransferEncoding_Throws()
        => Assert.Equal(
            RejectionReason.ContentLengthWithTransferEncoding,
            ResponseSnapshot.RejectEverySplit("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"));

    /// <summary>RFC 9112 §6.3 rule 5: an invalid Content-Length in a response is an unrecoverable framing error.</summary>
    [Theory]
    [InlineData("abc")]
    [InlineData("-1")]
    [InlineData("5, 6")]
    [InlineData("")]
    public void TryParse_InvalidContentLength_Throws(string value)
        => Assert.Equal(
            RejectionReason.InvalidContentLength,
            ResponseSnapshot.RejectEverySplit($"HTTP/1.1 200 OK\r\nContent-Length: {value}\r\n\r\n"));

    /// <summary>RFC 9112 §6.1: Transfer-Encoding in an HTTP/1.0 message MUST be treated as faulty framing.</summary>
    [Fact]
    public void TryParse_TransferEncodingOnHttp10_Throws()
        => Assert.Equal(
            RejectionReason.TransferEncodingOnHttp10,
            ResponseSnapshot.RejectEverySplit("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"));

    /// <summary>RFC 9112 §2.2 and §5: field lines are parsed as in requests (bare LF, obs-fold, whitespace before colon).</summary>
    [Theory]
    [InlineData("HTTP/1.1 200 OK\nServer: s\r\n\r\n", nameof(RejectionReason.BareLineFeed))]
    [InlineData("HTTP/1.1 200 OK\r\nServer: s\n\r\n", nameof(RejectionReason.BareLineFeed))]
    [InlineData("HTTP/1.1 200 OK\r\nServer: s\r\n t\r\n\r\n", nameof(RejectionReason.ObsoleteLineFolding))]
    [InlineData("HTTP/1.1 200 OK\r\nServer : s\r\n\r\n", nameof(RejectionReason.WhitespaceBeforeColon))]
    [InlineData("HTTP/1.1 200 OK\r\nServer: s\0\r\n\r\n", nameof(RejectionReason.InvalidFieldValue))]
    public void TryParse_MalformedFieldSection_Throws(string message, string reason)
        => Assert.Equal(reason, ResponseSnapshot.RejectEverySplit(message).ToString());

    /// <summary>The head limit covers the status line and the field section (SocketsHttpHandler's MaxResponseHeadersLength).</summary>
    [Fact]
    public void TryParse_HeadOverLimit_Throws()
    {
        const string head = "HTTP/1.1 200 OK\r\nX: 0123456789\r\n\r\n";

        Assert.Equal(head.Length, ResponseSnapshot.EverySplit(head, head.Length).Consumed);
        Assert.Equal(RejectionReason.HeadersTooLarge, ResponseSnapshot.RejectEverySplit(head, head.Length - 1));
        Assert.Equal(RejectionReason.HeadersTooLarge, ResponseSnapshot.RejectEverySplit("HTTP/1.1 200 OK", 10));
    }

    /// <summary>Guideline 2: an incomplete head returns false and never throws, however it was cut.</summary>
    [Theory]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nServer: s\r\n\r\n")]
    [InlineData("HTTP/1.1 100 Continue\r\n\r\n")]
    [InlineData("HTTP/1.0 204\r\n\r\n")]
    public void TryParse_EveryProperPrefix_NeedsMoreData(string message)
    {
        var bytes = Text.Bytes(message);
        for (var length = 0; length < bytes.Length; length++)
        {
            Segmented.ForEachSplit(
                bytes[..length],
                input => Assert.False(ResponseHeadParser.TryParse(input, new ResponseHead(), ResponseSnapshot.MaxHeadSize, out _)),
                maxSplitPoints: 1);
        }
    }

    [Fact]
    public void TryParse_ReusedHead_ForgetsPreviousMessage()
    {
        var head = new ResponseHead();
        var second = Text.Bytes("HTTP/1.1 204 No Content\r\nServer: s\r\n\r\n");

        Assert.True(ResponseHeadParser.TryParse(
            new ReadOnlySequence<byte>(Text.Bytes("HTTP/1.0 200 OK\r\nContent-Length: 3\r\nConnection: keep-alive\r\n\r\n")),
            head,
            ResponseSnapshot.MaxHeadSize,
            out _));
        Assert.True(ResponseHeadParser.TryParse(new ReadOnlySequence<byte>(second), head, ResponseSnapshot.MaxHeadSize, out var consumed));

        Assert.Equal(ResponseSnapshot.Parse(new ReadOnlySequence<byte>(second)), ResponseSnapshot.From(head, consumed));
    }
}
