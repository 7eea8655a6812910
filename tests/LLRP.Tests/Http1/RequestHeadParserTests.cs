using System.Buffers;
using LLRP.Http1;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http1;

/// <summary>Valid and incomplete request heads (RFC 9112 §2–§5), each parsed over every split into segments.</summary>
public sealed class RequestHeadParserTests
{
    public static readonly TheoryData<string> ValidHeads =
    [
        "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /index.html?q=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\nX-Empty:\r\nX-Spaced: \t padded \t\r\n\r\n",
        "POST /submit HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n",
        "POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET http://example.com:8080/a?b HTTP/1.1\r\nHost: other\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET / HTTP/1.0\r\n\r\n",
    ];

    /// <summary>RFC 9112 §5.1: field values lose their leading and trailing whitespace; §5.1: names are kept as sent.</summary>
    [Fact]
    public void TryParse_GetWithSeveralFields()
    {
        var request = RequestParsing.EverySplit(
            "GET /index.html?q=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\nuser-agent: test/1.0\r\nX-Empty:\r\nX-Spaced: \t padded value \t\r\n\r\n");

        Assert.Equal("GET", request.Method);
        Assert.Equal("/index.html?q=1", request.Path);
        Assert.Equal("example.com", request.ClientAuthority);
        Assert.False(request.HasAbsoluteTarget);
        Assert.False(request.IsHttp10);
        Assert.True(request.IsIdempotent);
        Assert.False(request.IsHeadMethod);
        Assert.Equal(BodyFraming.None, request.Framing);
        Assert.True(request.IsPersistent);
        Assert.Equal(
            "Host: example.com [Host]\nAccept: */* [Other]\nuser-agent: test/1.0 [Other]\nX-Empty:  [Other]\nX-Spaced: padded value [Other]",
            request.Fields);
        Assert.Equal(124, request.Consumed);
        Assert.Equal(124, request.SourceLength);
    }

    /// <summary>RFC 9112 §6.3 rule 6: Content-Length frames the body; the head ends at the empty line (§2.1).</summary>
    [Fact]
    public void TryParse_PostWithContentLength_ConsumesHeadOnly()
    {
        const string head = "POST /submit HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n";
        var request = RequestParsing.EverySplit(head + "helloGET / HTTP/1.1\r\n");

        Assert.Equal("POST", request.Method);
        Assert.False(request.IsIdempotent);
        Assert.Equal(BodyFraming.ContentLength, request.Framing);
        Assert.Equal(5, request.ContentLength);
        Assert.Equal(head.Length, request.Consumed);
        Assert.Equal(head.Length, request.SourceLength);
    }

    /// <summary>RFC 9112 §6.3 rule 4: Transfer-Encoding with chunked last frames the body as chunked.</summary>
    [Fact]
    public void TryParse_Chunked_ConsumesHeadOnly()
    {
        const string head = "POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
        var request = RequestParsing.EverySplit(head + "5\r\nhello\r\n0\r\n\r\n");

        Assert.Equal(BodyFraming.Chunked, request.Framing);
        Assert.Equal(head.Length, request.Consumed);
    }

    /// <summary>RFC 9112 §3.2.2: with an absolute-form target the authority comes from the target and Host is ignored.</summary>
    [Theory]
    [InlineData("http://example.com:8080/a/b?c=d", "/a/b?c=d", "example.com:8080")]
    [InlineData("HTTPS://example.com/", "/", "example.com")]
    [InlineData("http://example.com", "", "example.com")]
    [InlineData("http://example.com?x=1", "?x=1", "example.com")]
    [InlineData("http://[::1]:80/p", "/p", "[::1]:80")]
    public void TryParse_AbsoluteForm_UsesTargetAuthority(string target, string path, string authority)
    {
        var request = RequestParsing.EverySplit($"GET {target} HTTP/1.1\r\nHost: ignored\r\n\r\n");

        Assert.True(request.HasAbsoluteTarget);
        Assert.Equal(path, request.Path);
        Assert.Equal(authority, request.ClientAuthority);
    }

    /// <summary>RFC 9112 §3.2.4: asterisk-form, for a server-wide OPTIONS.</summary>
    [Fact]
    public void TryParse_OptionsAsterisk()
    {
        var request = RequestParsing.EverySplit("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n");

        Assert.Equal("OPTIONS", request.Method);
        Assert.Equal("*", request.Path);
        Assert.True(request.IsIdempotent);
    }

    /// <summary>RFC 9112 §3.2: Host is required of HTTP/1.1 requests only; RFC 9112 §9.3: HTTP/1.0 does not persist by default.</summary>
    [Fact]
    public void TryParse_Http10WithoutHost()
    {
        var request = RequestParsing.EverySplit("GET /old HTTP/1.0\r\nAccept: */*\r\n\r\n");

        Assert.True(request.IsHttp10);
        Assert.Equal("", request.ClientAuthority);
        Assert.False(request.IsPersistent);
        Assert.Equal("Accept: */* [Other]", request.Fields);
    }

    /// <summary>RFC 9112 §2.3: a higher minor version is handled as the highest this recipient supports, HTTP/1.1.</summary>
    [Fact]
    public void TryParse_Http12_TreatedAsHttp11()
    {
        var request = RequestParsing.EverySplit("GET / HTTP/1.2\r\nHost: a\r\n\r\n");

        Assert.False(request.IsHttp10);
        Assert.True(request.IsPersistent);
    }

    /// <summary>RFC 9110 §9.1: methods are case-sensitive tokens; any token is accepted and forwarded; RFC 9110 §9.2.2: idempotent ones are known.</summary>
    [Theory]
    [InlineData("HEAD", true, true)]
    [InlineData("PUT", false, true)]
    [InlineData("DELETE", false, true)]
    [InlineData("TRACE", false, true)]
    [InlineData("PATCH", false, false)]
    [InlineData("PURGE", false, false)]
    [InlineData("get", false, false)]
    public void TryParse_Method_Classified(string method, bool isHead, bool isIdempotent)
    {
        var request = RequestParsing.EverySplit($"{method} / HTTP/1.1\r\nHost: a\r\n\r\n");

        Assert.Equal(method, request.Method);
        Assert.Equal(isHead, request.IsHeadMethod);
        Assert.Equal(isIdempotent, request.IsIdempotent);
    }

    /// <summary>RFC 9112 §2.2: a server SHOULD ignore at least one empty line received before the request-line.</summary>
    [Theory]
    [InlineData("\r\n")]
    [InlineData("\r\n\r\n")]
    public void TryParse_LeadingEmptyLines_Skipped(string leading)
    {
        const string head = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        var request = RequestParsing.EverySplit(leading + head);

        Assert.Equal("GET", request.Method);
        Assert.Equal(leading.Length + head.Length, request.Consumed);
        Assert.Equal(head.Length, request.SourceLength);
    }

    /// <summary>Guideline 2: an incomplete head returns false, consumes nothing and never throws, however it was cut.</summary>
    [Theory]
    [MemberData(nameof(ValidHeads))]
    public void TryParse_EveryProperPrefix_NeedsMoreData(string message)
    {
        var bytes = Text.Bytes(message);
        for (var length = 0; length < bytes.Length; length++)
        {
            Segmented.ForEachSplit(bytes[..length], AssertIncomplete, maxSplitPoints: 1);
        }
    }

    /// <summary>Guideline 2 with RFC 9112 §2.2: a prefix made only of skipped empty lines is incomplete too, and consumes nothing.</summary>
    [Fact]
    public void TryParse_PrefixAfterLeadingEmptyLine_NeedsMoreData()
    {
        var bytes = Text.Bytes("\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n");
        for (var length = 0; length < bytes.Length; length++)
        {
            Segmented.ForEachSplit(bytes[..length], AssertIncomplete, maxSplitPoints: 1);
        }
    }

    [Fact]
    public void TryParse_ReusedHead_ForgetsPreviousMessage()
    {
        var head = new RequestHead();
        var first = Text.Bytes("POST http://x/y HTTP/1.0\r\nContent-Length: 3\r\nConnection: keep-alive\r\nTE: trailers\r\n\r\n");
        var second = Text.Bytes("GET /z HTTP/1.1\r\nHost: b\r\n\r\n");

        Assert.True(RequestHeadParser.TryParse(new ReadOnlySequence<byte>(first), head, RequestParsing.DefaultLimits, out _));
        Assert.True(RequestHeadParser.TryParse(new ReadOnlySequence<byte>(second), head, RequestParsing.DefaultLimits, out var consumed));

        Assert.Equal(RequestParsing.Parse(new ReadOnlySequence<byte>(second), RequestParsing.DefaultLimits), RequestSnapshot.From(head, consumed));
    }

    private static void AssertIncomplete(ReadOnlySequence<byte> input)
    {
        Assert.False(RequestHeadParser.TryParse(input, new RequestHead(), RequestParsing.DefaultLimits, out var consumed));
        Assert.Equal(0, consumed);
    }
}
