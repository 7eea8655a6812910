using System.Globalization;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests;

/// <summary>The status line and body framing of responses relayed to the client (RFC 9112 §4, §6, §7).</summary>
public sealed class ResponseFramingTests
{
    private const string Get11 = "GET /second HTTP/1.1\r\nHost: client.test\r\n\r\n";

    public static TheoryData<string, string> NoBodyResponses => LlrpModes.Cross(
        "HTTP/1.1 204 No Content\r\nX-Kind: 204\r\n\r\n",
        "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n",
        "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: 10\r\n\r\n");

    public static TheoryData<string, string> Http10ClientRequests => LlrpModes.Cross(
        "GET /chunked?s=5000&n=5 HTTP/1.0\r\n\r\n",
        "GET /chunked?s=5000&n=5 HTTP/1.0\r\nHost: client.test\r\nConnection: keep-alive\r\n\r\n");

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task StatusLine_CodeForwarded(string mode)
    {
        var response = await ExchangeOnceAsync(mode, "HTTP/1.1 418 I'm a teapot\r\nContent-Length: 0\r\n\r\n");

        Assert.Equal("HTTP/1.1", response.Version);
        Assert.Equal(418, response.StatusCode);
    }

    // RFC 9112 §4: the reason phrase may be empty.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task StatusLine_EmptyReasonPhraseAccepted(string mode)
    {
        var response = await ExchangeOnceAsync(mode, "HTTP/1.1 200 \r\nContent-Length: 2\r\n\r\nok");

        Assert.Equal(200, response.StatusCode);
        Assert.Equal("ok", response.BodyText);
    }

    // RFC 9110 §6.2: an intermediary sends its own HTTP version, whatever the origin's.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task StatusLine_ProxyVersionReplacesOriginVersion(string mode)
    {
        var response = await ExchangeOnceAsync(mode, "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok");

        Assert.Equal("HTTP/1.1", response.Version);
        Assert.Equal("ok", response.BodyText);
    }

    // RFC 9112 §6.2.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ContentLength_Kept(string mode)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        await client.SendAsync("GET /?s=1000 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(BodyFraming.ContentLength, response.Framing);
        Assert.Equal("1000", response.Head.Get("Content-Length"));
        Assert.Equal(DownstreamBody.PatternText(1000), response.BodyText);
    }

    // RFC 9112 §7.1.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Chunked_ChunkedToHttp11Client(string mode)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        await client.SendAsync("GET /chunked?s=5000&n=5 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var response = await client.ReadResponseAsync();
        await client.SendAsync("GET /?s=3 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var next = await client.ReadResponseAsync();

        Assert.Equal(BodyFraming.Chunked, response.Framing);
        Assert.Equal(DownstreamBody.PatternText(5000), response.BodyText);
        Assert.Equal("abc", next.BodyText);
    }

    // RFC 9112 §7.1.2: a trailer section ends the chunked body; the connection stays in step after it.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Chunked_TrailerSectionKeepsConnectionInStep(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(request => request.Target == "/first"
            ? "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n5\r\nhello\r\n0\r\nX-Checksum: abc\r\n\r\n"
            : ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /first HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var first = await client.ReadResponseAsync();
        await client.SendAsync(Get11);
        var next = await client.ReadResponseAsync();

        Assert.Equal("hello", first.BodyText);
        Assert.Equal("ok", next.BodyText);
        Assert.Equal(["/first", "/second"], origin.Requests.Select(request => request.Target));
    }

    // RFC 9112 §6.1: no Transfer-Encoding to an HTTP/1.0 client; the body is delimited by closing the connection.
    [Theory]
    [MemberData(nameof(Http10ClientRequests))]
    public async Task Chunked_CloseDelimitedToHttp10Client(string mode, string request)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        await client.SendAsync(request);
        var response = await client.ReadResponseAsync();

        Assert.Equal(BodyFraming.CloseDelimited, response.Framing);
        Assert.Equal(DownstreamBody.PatternText(5000), response.BodyText);
        Assert.DoesNotContain("keep-alive", response.Head.Tokens("Connection"));
    }

    // RFC 9112 §6.3 (7) and §7.1: a close-delimited response reaches an HTTP/1.1 client chunked,
    // so the client connection survives the upstream close.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task CloseDelimited_ChunkedToHttp11Client(string mode)
    {
        await using var origin = CloseDelimitedOrigin();
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /first HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var first = await client.ReadResponseAsync();
        await client.SendAsync(Get11);
        var second = await client.ReadResponseAsync();

        Assert.Equal(BodyFraming.Chunked, first.Framing);
        Assert.Equal("body of /first until close", first.BodyText);
        Assert.Equal("body of /second until close", second.BodyText);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task CloseDelimited_CloseDelimitedToHttp10Client(string mode)
    {
        await using var origin = CloseDelimitedOrigin();
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /first HTTP/1.0\r\nHost: client.test\r\nConnection: keep-alive\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(BodyFraming.CloseDelimited, response.Framing);
        Assert.Equal("body of /first until close", response.BodyText);
    }

    // RFC 9110 §9.3.2: a HEAD response has no body but keeps the Content-Length the origin sent.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Head_NoBodyContentLengthKept(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(request => request.Method == "HEAD"
            ? "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"
            : ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("HEAD /first HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var head = await client.ReadResponseAsync("HEAD");
        await client.SendAsync(Get11);
        var next = await client.ReadResponseAsync();

        Assert.Equal(200, head.StatusCode);
        Assert.Equal("100", head.Head.Get("Content-Length"));
        Assert.Equal("ok", next.BodyText);
    }

    // RFC 9110 §15.3.5 and §15.4.5, RFC 9112 §6.3 (1): 204 and 304 end at the head, even with a Content-Length.
    [Theory]
    [MemberData(nameof(NoBodyResponses))]
    public async Task NoBodyStatus_EndsAtHeadAndConnectionStaysUsable(string mode, string noBodyResponse)
    {
        await using var origin = ScriptedOrigin.Respond(request => request.Target == "/first" ? noBodyResponse : ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /first HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var first = await client.ReadResponseAsync();
        await client.SendAsync(Get11);
        var next = await client.ReadResponseAsync();

        Assert.Equal(int.Parse(noBodyResponse.AsSpan(9, 3), CultureInfo.InvariantCulture), first.StatusCode);
        Assert.Equal(200, next.StatusCode);
        Assert.Equal("ok", next.BodyText);
    }

    // RFC 9110 §15.2: a proxy forwards 1xx responses to an HTTP/1.1 client.
    // Raw mode only: HttpClient swallows interim responses (a documented difference of the HttpClient modes).
    [Theory]
    [MemberData(nameof(LlrpModes.Raw), MemberType = typeof(LlrpModes))]
    public async Task Interim103_ForwardedToHttp11Client(string mode)
    {
        await using var origin = EarlyHintsOrigin();
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET / HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var interim = await client.ReadResponseAsync();
        var final = await client.ReadResponseAsync();

        Assert.Equal(103, interim.StatusCode);
        Assert.Equal("</x>", interim.Head.Get("Link"));
        Assert.Equal(200, final.StatusCode);
        Assert.Equal("ok", final.BodyText);
    }

    // RFC 9110 §15.2: a server must not send a 1xx response to an HTTP/1.0 client.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Interim103_NotForwardedToHttp10Client(string mode)
    {
        await using var origin = EarlyHintsOrigin();
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET / HTTP/1.0\r\nHost: client.test\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        Assert.Equal("ok", response.BodyText);
    }

    // RFC 9112 §6.3 (3): with both fields, Transfer-Encoding wins and the proxy drops Content-Length (or rejects with 502).
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ContentLengthWithChunked_ContentLengthNotForwarded(string mode)
    {
        var response = await ExchangeOnceAsync(
            mode,
            "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");

        Assert.True(
            response.StatusCode == 502 || (response.StatusCode == 200 && response.BodyText == "hello"),
            $"Expected 502 or the chunked body alone, got:\n{response}");
    }

    private static async Task<RawHttpResponse> ExchangeOnceAsync(string mode, string originResponse)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync(originResponse);
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync("GET / HTTP/1.1\r\nHost: client.test\r\n\r\n");
        return await client.ReadResponseAsync();
    }

    /// <summary>An origin answering each connection's one request without framing fields, then closing.</summary>
    private static ScriptedOrigin CloseDelimitedOrigin() => ScriptedOrigin.Start(async connection =>
    {
        var request = await connection.ReadRequestAsync();
        await connection.SendAsync($"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nbody of {request?.Target} until close");
    });

    /// <summary>An origin answering every request with a 103, then, a moment later, a 200.</summary>
    private static ScriptedOrigin EarlyHintsOrigin() => ScriptedOrigin.Start(async connection =>
    {
        while (await connection.ReadRequestAsync() is not null)
        {
            await connection.SendAsync("HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n");
            await Task.Delay(50);
            await connection.SendAsync(ScriptedOrigin.Ok);
        }
    });
}
