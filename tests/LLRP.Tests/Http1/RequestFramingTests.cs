using LLRP.Diagnostics;
using LLRP.Http1;

namespace LLRP.Tests.Http1;

/// <summary>Request framing (RFC 9112 §6), Connection options (RFC 9110 §7.6.1), TE (RFC 9110 §10.1.4) and persistence (RFC 9112 §9.3), over every split.</summary>
public sealed class RequestFramingTests
{
    private const string Post = "POST / HTTP/1.1\r\nHost: a\r\n";

    /// <summary>RFC 9110 §8.6: Content-Length = 1*DIGIT.</summary>
    [Theory]
    [InlineData("0", 0)]
    [InlineData("5", 5)]
    [InlineData("007", 7)]
    [InlineData("999999999999999999", 999_999_999_999_999_999)]
    public void TryParse_ContentLength_Parsed(string value, long expected)
    {
        var request = RequestParsing.EverySplit(Post + $"Content-Length: {value}\r\n\r\n");

        Assert.Equal(BodyFraming.ContentLength, request.Framing);
        Assert.Equal(expected, request.ContentLength);
    }

    /// <summary>RFC 9110 §8.6: a list of identical values (one line or repeated lines) MAY be accepted as that one value.</summary>
    [Theory]
    [InlineData("Content-Length: 5, 5\r\n")]
    [InlineData("Content-Length: 5,5 , 5\r\n")]
    [InlineData("Content-Length: 5\r\nContent-Length: 5\r\n")]
    [InlineData("Content-Length: 5\r\nX: y\r\ncontent-length: 5, 5\r\n")]
    public void TryParse_IdenticalContentLengths_AcceptedAsOne(string fields)
    {
        var request = RequestParsing.EverySplit(Post + fields + "\r\n");

        Assert.Equal(BodyFraming.ContentLength, request.Framing);
        Assert.Equal(5, request.ContentLength);
    }

    /// <summary>RFC 9112 §6.3 rule 5: an invalid Content-Length in a request MUST be answered with 400.</summary>
    [Theory]
    [InlineData("Content-Length: abc\r\n")]
    [InlineData("Content-Length: -1\r\n")]
    [InlineData("Content-Length: +1\r\n")]
    [InlineData("Content-Length: 0x10\r\n")]
    [InlineData("Content-Length: 1 2\r\n")]
    [InlineData("Content-Length: 1.0\r\n")]
    [InlineData("Content-Length:\r\n")]
    [InlineData("Content-Length: 5,\r\n")]
    [InlineData("Content-Length: 1234567890123456789\r\n")]
    [InlineData("Content-Length: 99999999999999999999999\r\n")]
    [InlineData("Content-Length: 5, 6\r\n")]
    [InlineData("Content-Length: 5\r\nContent-Length: 6\r\n")]
    public void TryParse_InvalidContentLength_400(string fields)
        => RequestParsing.AssertRejected(Post + fields + "\r\n", RejectionReason.InvalidContentLength, 400);

    /// <summary>RFC 9112 §7: transfer-coding names are case-insensitive.</summary>
    [Theory]
    [InlineData("chunked")]
    [InlineData("Chunked")]
    [InlineData("CHUNKED")]
    public void TryParse_ChunkedAnyCase_Chunked(string coding)
        => Assert.Equal(BodyFraming.Chunked, RequestParsing.EverySplit(Post + $"Transfer-Encoding: {coding}\r\n\r\n").Framing);

    /// <summary>RFC 9110 §5.6.1.2: a recipient MUST parse and ignore a reasonable number of empty list elements.</summary>
    [Theory]
    [InlineData(", chunked")]
    [InlineData("chunked,")]
    [InlineData("chunked, ,")]
    public void TryParse_TransferEncodingWithEmptyListElements_Chunked(string codings)
        => Assert.Equal(BodyFraming.Chunked, RequestParsing.EverySplit(Post + $"Transfer-Encoding: {codings}\r\n\r\n").Framing);

    /// <summary>
    /// RFC 9112 §6.3 rule 4: in a request, chunked not being the final coding leaves the length undeterminable: 400.
    /// RFC 9112 §6.1: chunked MUST NOT be applied more than once. A <c>chunked</c> with a parameter is not the chunked coding (§7.1 defines none).
    /// </summary>
    [Theory]
    [InlineData("Transfer-Encoding: gzip\r\n")]
    [InlineData("Transfer-Encoding: chunked, gzip\r\n")]
    [InlineData("Transfer-Encoding: chunked, chunked\r\n")]
    [InlineData("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n")]
    [InlineData("Transfer-Encoding: chunked;x=1\r\n")]
    [InlineData("Transfer-Encoding:\r\n")]
    [InlineData("Transfer-Encoding: chun ked\r\n")]
    public void TryParse_InvalidTransferEncoding_400(string fields)
        => RequestParsing.AssertRejected(Post + fields + "\r\n", RejectionReason.InvalidTransferEncoding, 400);

    /// <summary>RFC 9112 §6.1: a server that receives a transfer coding it does not understand SHOULD respond 501.</summary>
    [Theory]
    [InlineData("Transfer-Encoding: gzip, chunked\r\n")]
    [InlineData("Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n")]
    public void TryParse_UnsupportedTransferCoding_501(string fields)
        => RequestParsing.AssertRejected(Post + fields + "\r\n", RejectionReason.UnsupportedTransferCoding, 501);

    /// <summary>RFC 9112 §6.1 (and §6.3 rule 3): a request with both Content-Length and Transfer-Encoding MAY be rejected; it is, as smuggling.</summary>
    [Theory]
    [InlineData("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n")]
    [InlineData("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n")]
    public void TryParse_ContentLengthWithTransferEncoding_400(string fields)
        => RequestParsing.AssertRejected(Post + fields + "\r\n", RejectionReason.ContentLengthWithTransferEncoding, 400);

    /// <summary>RFC 9112 §6.1: Transfer-Encoding in an HTTP/1.0 message MUST be treated as faulty framing.</summary>
    [Fact]
    public void TryParse_TransferEncodingOnHttp10_400()
        => RequestParsing.AssertRejected("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", RejectionReason.TransferEncodingOnHttp10, 400);

    /// <summary>RFC 9112 §9.3: HTTP/1.1 persists unless "close"; HTTP/1.0 persists only with "keep-alive". Options are case-insensitive lists.</summary>
    [Theory]
    [InlineData("HTTP/1.1", "", true)]
    [InlineData("HTTP/1.1", "Connection: close\r\n", false)]
    [InlineData("HTTP/1.1", "Connection: CLOSE\r\n", false)]
    [InlineData("HTTP/1.1", "Connection: keep-alive\r\n", true)]
    [InlineData("HTTP/1.1", "Connection: keep-alive, close\r\n", false)]
    [InlineData("HTTP/1.1", "Connection: X-Foo\r\nConnection: close\r\n", false)]
    [InlineData("HTTP/1.1", "Connection: ,, close ,\r\n", false)]
    [InlineData("HTTP/1.0", "", false)]
    [InlineData("HTTP/1.0", "Connection: keep-alive\r\n", true)]
    [InlineData("HTTP/1.0", "Connection: Keep-Alive\r\n", true)]
    [InlineData("HTTP/1.0", "Connection: keep-alive, close\r\n", false)]
    public void TryParse_ConnectionOptions_Persistence(string version, string fields, bool persistent)
        => Assert.Equal(persistent, RequestParsing.EverySplit($"GET / {version}\r\nHost: a\r\n{fields}\r\n").IsPersistent);

    /// <summary>RFC 9110 §7.6.1: connection-option = token.</summary>
    [Fact]
    public void TryParse_InvalidConnectionOption_400()
        => RequestParsing.AssertRejected("GET / HTTP/1.1\r\nHost: a\r\nConnection: a b\r\n\r\n", RejectionReason.InvalidFieldValue, 400);

    /// <summary>RFC 9110 §7.6.1: fields named by a Connection option are hop-by-hop, wherever they appear and whatever their case.</summary>
    [Fact]
    public void TryParse_ConnectionOption_MarksNamedFields()
    {
        var request = RequestParsing.EverySplit(
            "GET / HTTP/1.1\r\nx-foo: 1\r\nHost: a\r\nConnection: X-Foo, Via\r\nX-FOO: 2\r\nVia: 1.1 p\r\nX-Bar: 3\r\n\r\n");

        Assert.Equal(
            "x-foo: 1 [NamedByConnection]\nHost: a [Host]\nConnection: X-Foo, Via [Connection]\nX-FOO: 2 [NamedByConnection]\nVia: 1.1 p [NamedByConnection]\nX-Bar: 3 [Other]",
            request.Fields);
    }

    /// <summary>
    /// RFC 9110 §7.6.1 lets a sender name any field; Host and the framing fields are re-computed by the proxy, so
    /// naming them must not change their meaning (RFC 9112 §6.3 framing still applies).
    /// </summary>
    [Fact]
    public void TryParse_ConnectionNamingFramingFields_KeepsTheirKind()
    {
        var request = RequestParsing.EverySplit(
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nConnection: Content-Length, Host, Transfer-Encoding, TE, Upgrade\r\nTE: trailers\r\nUpgrade: h2c\r\n\r\n");

        Assert.Equal(BodyFraming.ContentLength, request.Framing);
        Assert.Equal(3, request.ContentLength);
        Assert.Equal("a", request.ClientAuthority);
        Assert.Equal(
            "Host: a [Host]\nContent-Length: 3 [ContentLength]\nConnection: Content-Length, Host, Transfer-Encoding, TE, Upgrade [Connection]\nTE: trailers [TE]\nUpgrade: h2c [Upgrade]",
            request.Fields);
    }

    /// <summary>RFC 9110 §10.1.4: "trailers" in TE says the client accepts a trailer section; TE = #t-codings, case-insensitive.</summary>
    [Theory]
    [InlineData("TE: trailers\r\n", true)]
    [InlineData("TE: Trailers\r\n", true)]
    [InlineData("TE: gzip;q=0.5, trailers\r\n", true)]
    [InlineData("TE: gzip\r\nte: trailers\r\n", true)]
    [InlineData("TE: gzip, deflate;q=0.5\r\n", false)]
    [InlineData("TE: trailersx\r\n", false)]
    [InlineData("X-TE: trailers\r\n", false)]
    [InlineData("", false)]
    public void TryParse_TE_AcceptsTrailers(string fields, bool accepts)
        => Assert.Equal(accepts, RequestParsing.EverySplit($"GET / HTTP/1.1\r\nHost: a\r\n{fields}\r\n").AcceptsTrailers);
}
