using LLRP.Routing;
using LLRP.Diagnostics;
using LLRP.Http1;

namespace LLRP.Tests.Http1;

/// <summary>Malformed request heads: each is rejected for the same reason however it was cut, with the status code that reason maps to.</summary>
public sealed class RequestHeadRejectionTests
{
    private const string Host = "Host: a\r\n";

    /// <summary>RFC 9112 §2.2: a bare LF as a line terminator is rejected here (the RFC allows it; a proxy must not disagree with its downstream).</summary>
    [Theory]
    [InlineData("GET / HTTP/1.1\nHost: a\r\n\r\n")]
    [InlineData("GET / HTTP/1.1\r\nHost: a\n\r\n")]
    [InlineData("GET / HTTP/1.1\r\nHost: a\r\n\n")]
    [InlineData("\nGET / HTTP/1.1\r\nHost: a\r\n\r\n")]
    public void TryParse_BareLineFeed_Rejected(string message)
        => RequestParsing.AssertRejected(message, RejectionReason.BareLineFeed, 400);

    /// <summary>RFC 9112 §2.2: a bare CR outside a line ending MUST be treated as invalid (or replaced by SP).</summary>
    [Theory]
    [InlineData("GET / HTTP/1.1\r\n" + Host + "X: a\rb\r\n\r\n")]
    [InlineData("GET / HTTP/1.1\r\n" + Host + "X: a\r\r\n\r\n")]
    public void TryParse_BareCarriageReturnInValue_Rejected(string message)
        => RequestParsing.AssertRejected(message, RejectionReason.InvalidFieldValue, 400);

    /// <summary>RFC 9112 §2.2: a bare CR in the request line (here in the target).</summary>
    [Fact]
    public void TryParse_BareCarriageReturnInRequestLine_Rejected()
        => RequestParsing.AssertRejected("GET /a\rb HTTP/1.1\r\n" + Host + "\r\n", RejectionReason.InvalidRequestTarget, 400);

    /// <summary>RFC 9112 §5.2: a server MUST reject obs-fold with 400 (or replace it), and §2.2: whitespace before the first field line.</summary>
    [Theory]
    [InlineData("GET / HTTP/1.1\r\n" + Host + "X: a\r\n b\r\n\r\n")]
    [InlineData("GET / HTTP/1.1\r\n" + Host + "X: a\r\n\tb\r\n\r\n")]
    [InlineData("GET / HTTP/1.1\r\n " + Host + "\r\n")]
    public void TryParse_ObsoleteLineFolding_Rejected(string message)
        => RequestParsing.AssertRejected(message, RejectionReason.ObsoleteLineFolding, 400);

    /// <summary>RFC 9112 §5.1: a server MUST reject whitespace between a field name and the colon with 400.</summary>
    [Theory]
    [InlineData("GET / HTTP/1.1\r\nHost : a\r\n\r\n")]
    [InlineData("GET / HTTP/1.1\r\n" + Host + "X\t: a\r\n\r\n")]
    public void TryParse_WhitespaceBeforeColon_Rejected(string message)
        => RequestParsing.AssertRejected(message, RejectionReason.WhitespaceBeforeColon, 400);

    /// <summary>RFC 9110 §5.1: field-name = token (RFC 9110 §5.6.2); it cannot be empty nor hold a delimiter.</summary>
    [Theory]
    [InlineData("GET / HTTP/1.1\r\n" + Host + ": a\r\n\r\n")]
    [InlineData("GET / HTTP/1.1\r\n" + Host + "NoColon\r\n\r\n")]
    [InlineData("GET / HTTP/1.1\r\n" + Host + "X(y): a\r\n\r\n")]
    [InlineData("GET / HTTP/1.1\r\n" + Host + "X@Y: a\r\n\r\n")]
    [InlineData("GET / HTTP/1.1\r\n" + Host + "X Y: a\r\n\r\n")]
    [InlineData("GET / HTTP/1.1\r\n" + Host + "X\u00e9: a\r\n\r\n")]
    public void TryParse_InvalidFieldName_Rejected(string message)
        => RequestParsing.AssertRejected(message, RejectionReason.InvalidFieldName, 400);

    /// <summary>RFC 9110 §5.5: NUL, CR, LF and other controls are not field-vchar; a recipient MUST reject them (or replace CR/LF/NUL).</summary>
    [Theory]
    [InlineData("X: a\0b")]
    [InlineData("X: a\u0001b")]
    [InlineData("X: a\u001fb")]
    [InlineData("X: a\u007fb")]
    public void TryParse_ControlInValue_Rejected(string line)
        => RequestParsing.AssertRejected("GET / HTTP/1.1\r\n" + Host + line + "\r\n\r\n", RejectionReason.InvalidFieldValue, 400);

    /// <summary>RFC 9110 §5.5: HTAB, SP and obs-text are allowed inside a value.</summary>
    [Fact]
    public void TryParse_TabAndObsTextInValue_Accepted()
    {
        var request = RequestParsing.EverySplit("GET / HTTP/1.1\r\n" + Host + "X: a\tb \u00ff c\r\n\r\n");

        Assert.EndsWith("X: a\tb \u00ff c [Other]", request.Fields);
    }

    /// <summary>RFC 9112 §3.2: a server MUST respond 400 to an HTTP/1.1 request without Host.</summary>
    [Fact]
    public void TryParse_MissingHost_Rejected()
        => RequestParsing.AssertRejected("GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", RejectionReason.MissingHost, 400);

    /// <summary>RFC 9112 §3.2: a server MUST respond 400 to a request with more than one Host field line, even on HTTP/1.0.</summary>
    [Theory]
    [InlineData("GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n")]
    [InlineData("GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n")]
    [InlineData("GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n")]
    public void TryParse_DuplicateHost_Rejected(string message)
        => RequestParsing.AssertRejected(message, RejectionReason.DuplicateHost, 400);

    /// <summary>RFC 9112 §3.2: a server MUST respond 400 to a Host field with an invalid value (Host = uri-host [ ":" port ], RFC 9110 §7.2).</summary>
    [Theory]
    [InlineData("exa mple.com")]
    [InlineData("a/b")]
    [InlineData("user@a")]
    [InlineData("")]
    [InlineData(":80")]
    public void TryParse_InvalidHostValue_Rejected(string host)
    {
        var reason = RequestParsing.RejectEverySplit($"GET / HTTP/1.1\r\nHost: {host}\r\n\r\n");

        Assert.Equal(400, ErrorPolicy.StatusCode(reason));
    }

    /// <summary>RFC 9110 §4.2.1: an http URI with an empty host is invalid, in a Host field or an absolute-form target.</summary>
    [Theory]
    [InlineData("GET / HTTP/1.1\r\nHost:\r\n\r\n")]
    [InlineData("GET / HTTP/1.1\r\nHost: \t \r\n\r\n")]
    [InlineData("GET / HTTP/1.0\r\nHost:\r\n\r\n")]
    [InlineData("GET http://:80/ HTTP/1.1\r\nHost: a\r\n\r\n")]
    public void TryParse_EmptyHost_Rejected(string message)
        => RequestParsing.AssertRejected(message, RejectionReason.InvalidHost, 400);

    /// <summary>RFC 9112 §3: a method longer than any implemented gets 501, not 414: the target is not what is long.</summary>
    [Fact]
    public void TryParse_MethodOverRequestLineLimit_501()
    {
        var limits = new RequestLimits(64, 1024, 100);

        Assert.Equal(RejectionReason.MethodTooLong, RequestParsing.RejectEverySplit(new string('M', 64), limits));
        Assert.Equal(RejectionReason.MethodTooLong, RequestParsing.RejectEverySplit(new string('M', 100) + " / HTTP/1.1\r\n" + Host + "\r\n", limits));
        Assert.Equal(RejectionReason.InvalidMethod, RequestParsing.RejectEverySplit(new string('M', 40) + "(" + new string('M', 40), limits));
        Assert.Equal(501, ErrorPolicy.StatusCode(RejectionReason.MethodTooLong));
    }

    /// <summary>RFC 9110 §9.1: method = token.</summary>
    [Theory]
    [InlineData("G(T / HTTP/1.1\r\n" + Host + "\r\n")]
    [InlineData("G\u00e9T / HTTP/1.1\r\n" + Host + "\r\n")]
    [InlineData("GE\tT / HTTP/1.1\r\n" + Host + "\r\n")]
    public void TryParse_InvalidMethod_Rejected(string message)
        => RequestParsing.AssertRejected(message, RejectionReason.InvalidMethod, 400);

    /// <summary>RFC 9112 §3: request-line = method SP request-target SP HTTP-version, single spaces, nothing missing.</summary>
    [Theory]
    [InlineData(" / HTTP/1.1\r\n" + Host + "\r\n")]
    [InlineData("GET  HTTP/1.1\r\n" + Host + "\r\n")]
    [InlineData("GET  / HTTP/1.1\r\n" + Host + "\r\n")]
    [InlineData("GET /\r\n" + Host + "\r\n")]
    [InlineData("GET\r\n" + Host + "\r\n")]
    public void TryParse_MalformedRequestLine_Rejected(string message)
        => RequestParsing.AssertRejected(message, RejectionReason.InvalidRequestLine, 400);

    /// <summary>RFC 9112 §3.2: origin-form, absolute-form (with an authority and no userinfo, RFC 9110 §4.2.4) or asterisk-form for OPTIONS only.</summary>
    [Theory]
    [InlineData("abc")]
    [InlineData("*")]
    [InlineData("ftp://example.com/")]
    [InlineData("http:///path")]
    [InlineData("http://user@example.com/")]
    [InlineData("/a\u0001b")]
    [InlineData("/caf\u00e9")]
    public void TryParse_InvalidTarget_Rejected(string target)
        => RequestParsing.AssertRejected($"GET {target} HTTP/1.1\r\n" + Host + "\r\n", RejectionReason.InvalidRequestTarget, 400);

    /// <summary>RFC 9110 §9.3.6: CONNECT is for tunnels, which this proxy does not offer: 501 (RFC 9110 §15.6.2).</summary>
    [Fact]
    public void TryParse_Connect_NotImplemented()
        => RequestParsing.AssertRejected("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", RejectionReason.UnsupportedMethod, 501);

    /// <summary>RFC 9112 §2.3: HTTP-version = "HTTP/" DIGIT "." DIGIT, case-sensitive.</summary>
    [Theory]
    [InlineData("HTTP/1.x")]
    [InlineData("HTTP/11")]
    [InlineData("http/1.1")]
    [InlineData("HTTP/1.1 ")]
    [InlineData("HTTP/1.10")]
    [InlineData("HTTP/ 1.1")]
    public void TryParse_MalformedVersion_Rejected(string version)
        => RequestParsing.AssertRejected($"GET / {version}\r\n" + Host + "\r\n", RejectionReason.InvalidVersion, 400);

    /// <summary>RFC 9110 §15.6.6: 505 for a major version the server does not support.</summary>
    [Theory]
    [InlineData("HTTP/2.0")]
    [InlineData("HTTP/0.9")]
    [InlineData("HTTP/3.0")]
    public void TryParse_UnsupportedVersion_505(string version)
        => RequestParsing.AssertRejected($"GET / {version}\r\n" + Host + "\r\n", RejectionReason.UnsupportedVersion, 505);

    /// <summary>RFC 9112 §3: a server MUST be able to parse lines it accepts and SHOULD answer 414 to a longer request-target. The limit counts the CRLF.</summary>
    [Fact]
    public void TryParse_RequestLineOverLimit_414()
    {
        var limits = new RequestLimits(64, 1024, 100);
        var fits = "GET /" + new string('a', 64 - "GET / HTTP/1.1\r\n".Length) + " HTTP/1.1\r\n";
        var tooLong = "GET /" + new string('a', 65 - "GET / HTTP/1.1\r\n".Length) + " HTTP/1.1\r\n";

        Assert.Equal(fits.Length, RequestParsing.EverySplit(fits + Host + "\r\n", limits).Consumed - Host.Length - 2);
        Assert.Equal(RejectionReason.RequestLineTooLong, RequestParsing.RejectEverySplit(tooLong + Host + "\r\n", limits));
        Assert.Equal(RejectionReason.RequestLineTooLong, RequestParsing.RejectEverySplit(tooLong[..64], limits));
        Assert.Equal(414, ErrorPolicy.StatusCode(RejectionReason.RequestLineTooLong));
    }

    /// <summary>RFC 6585 §5: 431 when the header fields are too large. The limit counts every field line and the empty line.</summary>
    [Fact]
    public void TryParse_HeaderSectionOverLimit_431()
    {
        var limits = new RequestLimits(1024, 64, 100);
        const string line = "GET / HTTP/1.1\r\n";
        var fits = Host + "X: " + new string('v', 64 - Host.Length - "X: \r\n\r\n".Length) + "\r\n\r\n";
        var tooLarge = Host + "X: " + new string('v', 65 - Host.Length - "X: \r\n\r\n".Length) + "\r\n\r\n";

        Assert.Equal(line.Length + 64, RequestParsing.EverySplit(line + fits, limits).Consumed);
        Assert.Equal(RejectionReason.HeadersTooLarge, RequestParsing.RejectEverySplit(line + tooLarge, limits));
        Assert.Equal(RejectionReason.HeadersTooLarge, RequestParsing.RejectEverySplit(line + tooLarge[..^1], limits));
        Assert.Equal(431, ErrorPolicy.StatusCode(RejectionReason.HeadersTooLarge));
    }

    /// <summary>RFC 6585 §5: 431 for too many header fields.</summary>
    [Fact]
    public void TryParse_TooManyFields_431()
    {
        var limits = new RequestLimits(1024, 1024, 3);
        const string three = "GET / HTTP/1.1\r\nHost: a\r\nB: b\r\nC: c\r\n";

        Assert.Equal(three.Length + 2, RequestParsing.EverySplit(three + "\r\n", limits).Consumed);
        Assert.Equal(RejectionReason.TooManyHeaders, RequestParsing.RejectEverySplit(three + "D: d\r\n\r\n", limits));
        Assert.Equal(431, ErrorPolicy.StatusCode(RejectionReason.TooManyHeaders));
    }
}
