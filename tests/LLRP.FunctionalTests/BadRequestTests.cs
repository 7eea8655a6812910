using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests;

/// <summary>
/// Requests the proxy must refuse: an error status with <c>Connection: close</c>, then the connection closes,
/// and nothing reaches the origin.
/// </summary>
public sealed class BadRequestTests
{
    public static TheoryData<string, string> MalformedRequests => LlrpModes.Cross(
        // RFC 9112 §3: not a request line.
        "GARBAGE\r\n\r\n",
        "GET /\r\nHost: a\r\n\r\n",
        "GET /a b HTTP/1.1\r\nHost: a\r\n\r\n",
        // RFC 9112 §5: a field line without a colon, and whitespace between name and colon (§5.1).
        "GET / HTTP/1.1\r\nHost: a\r\nNoColonHere\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nX-Foo : bar\r\n\r\n",
        // RFC 9110 §8.6 and RFC 9112 §6.3 (5): invalid Content-Length.
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1 2\r\n\r\nx",
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxy",
        // RFC 9112 §6.1 and §6.3 (3): Content-Length with Transfer-Encoding (request smuggling).
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        // RFC 9112 §6.3 (4): chunked is not the final coding.
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
        // RFC 9112 §3.2: an HTTP/1.1 request without Host, or with two.
        "GET / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        // RFC 9110 §4.2.1: an http URI with an empty host is invalid (RFC 9112 §3.2: 400 for an invalid Host).
        "GET / HTTP/1.1\r\nHost:\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: :8080\r\n\r\n",
        "GET http://:8080/ HTTP/1.1\r\nHost: a\r\n\r\n");

    /// <summary>RFC 9112 §7.1.1: a ";" without a name, whitespace leading nowhere, a name or value that is not a token.</summary>
    public static TheoryData<string, string> InvalidChunkExtensions => LlrpModes.Cross("5;", "5 ;", "5;bad[=x", "5;x=\"open", "5 ");

    public static TheoryData<string, string> UnsupportedVersions => LlrpModes.Cross("HTTP/2.0", "HTTP/3.0");

    [Theory]
    [MemberData(nameof(MalformedRequests))]
    public async Task Malformed_400(string mode, string request)
    {
        var response = await RejectAsync(mode, request);

        Assert.Equal(400, response.StatusCode);
    }

    // RFC 9112 §6.1: a transfer coding the server does not understand gets 501 (400 is also acceptable for a proxy).
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task UnknownTransferCoding_501Or400(string mode)
    {
        var response = await RejectAsync(mode, "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: foo, chunked\r\n\r\n0\r\n\r\n");

        Assert.Contains(response.StatusCode, new[] { 400, 501 });
    }

    // RFC 9110 §15.6.6.
    [Theory]
    [MemberData(nameof(UnsupportedVersions))]
    public async Task UnsupportedVersion_505(string mode, string version)
    {
        var response = await RejectAsync(mode, $"GET / {version}\r\nHost: a\r\n\r\n");

        Assert.Equal(505, response.StatusCode);
    }

    // RFC 9112 §3: a request-target longer than the server wishes to parse gets 414.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task RequestLineOverDefaultLimit_414(string mode)
    {
        var response = await RejectAsync(mode, $"GET /{new string('a', 9000)} HTTP/1.1\r\nHost: a\r\n\r\n");

        Assert.Equal(414, response.StatusCode);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task RequestLineOverConfiguredLimit_414(string mode)
    {
        var response = await RejectAsync(mode, $"GET /{new string('a', 200)} HTTP/1.1\r\nHost: a\r\n\r\n", "limits.maxRequestLineSize=100");

        Assert.Equal(414, response.StatusCode);
    }

    // RFC 6585 §5: a header section too large gets 431.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task HeaderSectionOverDefaultLimit_431(string mode)
    {
        var fields = string.Concat(Enumerable.Range(0, 40).Select(i => $"X-Big-{i}: {new string('v', 1000)}\r\n"));

        var response = await RejectAsync(mode, $"GET / HTTP/1.1\r\nHost: a\r\n{fields}\r\n");

        Assert.Equal(431, response.StatusCode);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task HeaderSectionOverConfiguredLimit_431(string mode)
    {
        var response = await RejectAsync(mode, $"GET / HTTP/1.1\r\nHost: a\r\nX-Big: {new string('v', 2000)}\r\n\r\n", "limits.maxRequestHeadersTotalSize=1000");

        Assert.Equal(431, response.StatusCode);
    }

    // RFC 6585 §5.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task HeaderCountOverDefaultLimit_431(string mode)
    {
        var fields = string.Concat(Enumerable.Range(0, 101).Select(i => $"X-Field-{i}: {i}\r\n"));

        var response = await RejectAsync(mode, $"GET / HTTP/1.1\r\nHost: a\r\n{fields}\r\n");

        Assert.Equal(431, response.StatusCode);
    }

    // RFC 9110 §15.5.14.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task BodyOverConfiguredLimit_413(string mode)
    {
        var response = await RejectAsync(mode, $"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 101\r\n\r\n{new string('b', 101)}", "limits.maxRequestBodySize=100");

        Assert.Equal(413, response.StatusCode);
    }

    // The limits must not refuse what fits: a long line and many fields just inside the defaults pass.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task RequestJustInsideDefaultLimits_Forwarded(string mode)
    {
        var target = "/" + new string('a', 8000);
        var fields = string.Concat(Enumerable.Range(0, 90).Select(i => $"X-Field-{i}: {new string('v', 200)}\r\n"));

        var exchange = await ForwardedExchange.RunAsync($"GET {target} HTTP/1.1\r\nHost: a\r\n{fields}\r\n", mode);

        Assert.Equal(target, exchange.Upstream.Target);
        Assert.Equal(new string('v', 200), exchange.Upstream.Head.Get("X-Field-89"));
    }

    // RFC 9112 §7.1: an invalid chunk-size line is a bad request; the origin never sees the body completed.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public Task InvalidChunkSize_400AndUpstreamNeverComplete(string mode)
        => AssertChunkedBodyRejectedAsync(mode, "5\r\nhello\r\nzz\r\nmore\r\n0\r\n\r\n");

    [Theory]
    [MemberData(nameof(InvalidChunkExtensions))]
    public Task InvalidChunkExtension_400AndUpstreamNeverComplete(string mode, string chunkLine)
        => AssertChunkedBodyRejectedAsync(mode, $"{chunkLine}\r\nhello\r\n0\r\n\r\n");

    /// <summary>A chunked request body the proxy must refuse: 400 with close, the connection closed, no complete request reaches the origin.</summary>
    private static async Task AssertChunkedBodyRejectedAsync(string mode, string chunkedBody)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + chunkedBody);
        var response = await client.ReadResponseAsync();

        Assert.Equal(400, response.StatusCode);
        Assert.Contains("close", response.Head.Tokens("Connection"));
        await client.AssertClosedByPeerAsync();
        await origin.ConnectionsEndedAsync();
        Assert.Empty(origin.Requests);
    }

    // RFC 9112 §3: a method longer than any the server implements gets 501; the target is not what is long (no 414).
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task MethodOverRequestLineLimit_501(string mode)
    {
        var response = await RejectAsync(mode, new string('M', 100 * 1024) + " / HTTP/1.1\r\nHost: a\r\n\r\n");

        Assert.Equal(501, response.StatusCode);
    }

    // RFC 9112 §9.3.2: pipelined requests before the bad one are answered; then 400 and close.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ValidThenGarbage_FirstAnsweredThen400(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /valid HTTP/1.1\r\nHost: a\r\n\r\nGARBAGE\r\n\r\n");
        var first = await client.ReadResponseAsync();
        var second = await client.ReadResponseAsync();

        Assert.Equal("ok", first.BodyText);
        Assert.Equal(400, second.StatusCode);
        Assert.Contains("close", second.Head.Tokens("Connection"));
        await client.AssertClosedByPeerAsync();
        Assert.Equal("/valid", origin.SingleRequest().Target);
    }

    /// <summary>Sends <paramref name="request"/>, asserts the refusal's <c>Connection: close</c>, the close, and an untouched origin.</summary>
    private static async Task<RawHttpResponse> RejectAsync(string mode, string request, params string[] settings)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, settings);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(request);
        var response = await client.ReadResponseAsync();

        Assert.Contains("close", response.Head.Tokens("Connection"));
        await client.AssertClosedByPeerAsync();
        Assert.Equal(0, origin.BytesReceived);
        return response;
    }
}
