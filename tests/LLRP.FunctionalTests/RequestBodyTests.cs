using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests;

/// <summary>RFC 9112 §6: request body framing as forwarded upstream.</summary>
public sealed class RequestBodyTests
{
    public static TheoryData<string, string> ChunkedCodings => LlrpModes.Cross("chunked", "Chunked", "CHUNKED");

    public static TheoryData<string, string> PartialBodies => LlrpModes.Cross(
        "Content-Length: 100\r\n\r\n" + new string('x', 50),
        "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
        "Transfer-Encoding: chunked\r\n\r\n5\r\nhel");

    // RFC 9112 §6.2: a Content-Length body keeps its length.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ContentLength_ForwardedWithSameLength(string mode)
    {
        var exchange = await ForwardedExchange.RunAsync(
            "POST /upload HTTP/1.1\r\nHost: client.test\r\nContent-Length: 11\r\nContent-Type: text/plain\r\n\r\nhello world",
            mode);

        var upstream = exchange.Upstream;
        Assert.Equal(BodyFraming.ContentLength, upstream.Framing);
        Assert.Equal("11", upstream.Head.Get("Content-Length"));
        Assert.Equal("hello world", upstream.BodyText);
        Assert.Equal("text/plain", upstream.Head.Get("Content-Type"));
    }

    // RFC 9112 §7.1 and §7 (coding names are case-insensitive): the body is decoded and re-chunked,
    // the client's chunk extensions and raw chunk-size lines do not pass.
    [Theory]
    [MemberData(nameof(ChunkedCodings))]
    public async Task Chunked_ReChunkedWithSameDecodedBytes(string mode, string coding)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(
            $"POST /upload HTTP/1.1\r\nHost: client.test\r\nTransfer-Encoding: {coding}\r\n\r\n"
            + "5;client-ext=1\r\nhello\r\n00001;client-ext=\"q\"\r\n \r\n5\r\nworld\r\n0\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        var upstream = origin.SingleRequest();
        Assert.Equal(BodyFraming.Chunked, upstream.Framing);
        Assert.Equal("chunked", upstream.Head.Get("Transfer-Encoding"));
        Assert.False(upstream.Head.Contains("Content-Length"));
        Assert.Equal("hello world", upstream.BodyText);
        Assert.DoesNotContain("client-ext", Encoding.Latin1.GetString(origin.Connections[0].Reader.Received));
    }

    // RFC 9112 §7.1.2: a trailer section ends the chunked body; the next pipelined request is parsed after it.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Chunked_TrailerSectionKeepsConnectionInStep(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(
            "POST /upload HTTP/1.1\r\nHost: client.test\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-Checksum: abc\r\n\r\n"
            + "GET /next HTTP/1.1\r\nHost: client.test\r\n\r\n");
        await client.ReadResponseAsync();
        await client.ReadResponseAsync();

        var upstream = origin.Requests;
        Assert.Equal(["/upload", "/next"], upstream.Select(request => request.Target));
        Assert.Equal("hello", upstream[0].BodyText);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ZeroContentLength_ForwardedAsEmptyBody(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("POST /empty HTTP/1.1\r\nHost: client.test\r\nContent-Length: 0\r\n\r\n");
        var first = await client.ReadResponseAsync();
        await client.SendAsync("GET /next HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var second = await client.ReadResponseAsync();

        Assert.Equal(200, first.StatusCode);
        Assert.Equal(200, second.StatusCode);
        var upstream = origin.Requests;
        Assert.Equal(["/empty", "/next"], upstream.Select(request => request.Target));
        Assert.Equal("0", upstream[0].Head.Get("Content-Length"));
        Assert.Empty(upstream[0].Body);
    }

    // RFC 9112 §6.3: a request with neither Content-Length nor Transfer-Encoding has no body.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task NoFramingFields_ForwardedWithoutBody(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /first HTTP/1.1\r\nHost: client.test\r\n\r\nGET /second HTTP/1.1\r\nHost: client.test\r\n\r\n");
        await client.ReadResponseAsync();
        await client.ReadResponseAsync();

        var upstream = origin.Requests;
        Assert.Equal(["/first", "/second"], upstream.Select(request => request.Target));
        Assert.All(upstream, request => Assert.Equal(BodyFraming.None, request.Framing));
    }

    // RFC 9110 §10.1.1 and §15.2.1: the client waits for 100 Continue, which the proxy relays from the origin.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ExpectContinue_InterimResponseRelayedBeforeContentLengthBody(string mode)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        await client.SendAsync("POST /echo HTTP/1.1\r\nHost: client.test\r\nExpect: 100-continue\r\nContent-Length: 13\r\n\r\n");
        var interim = await client.ReadResponseAsync();
        await client.SendAsync("after-100-ok!");
        var final = await client.ReadResponseAsync();

        Assert.Equal(100, interim.StatusCode);
        Assert.Equal(200, final.StatusCode);
        Assert.Equal("after-100-ok!", final.BodyText);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ExpectContinue_InterimResponseRelayedBeforeChunkedBody(string mode)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        await client.SendAsync("POST /echo HTTP/1.1\r\nHost: client.test\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n");
        var interim = await client.ReadResponseAsync();
        await client.SendAsync("6\r\nafter-\r\n7\r\n100-ok!\r\n0\r\n\r\n");
        var final = await client.ReadResponseAsync();

        Assert.Equal(100, interim.StatusCode);
        Assert.Equal(200, final.StatusCode);
        Assert.Equal("after-100-ok!", final.BodyText);
    }

    // RFC 9112 §6.3: a Content-Length body is opaque; request-like bytes inside it are not a second request.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ContentLengthBody_RequestLikeContentNotSplit(string mode)
    {
        const string smuggled = "GET /smuggled HTTP/1.1\r\nHost: client.test\r\n\r\n";
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(
            $"POST /carrier HTTP/1.1\r\nHost: client.test\r\nContent-Length: {smuggled.Length}\r\n\r\n{smuggled}"
            + "GET /next HTTP/1.1\r\nHost: client.test\r\n\r\n");
        await client.ReadResponseAsync();
        await client.ReadResponseAsync();

        var upstream = origin.Requests;
        Assert.Equal(["/carrier", "/next"], upstream.Select(request => request.Target));
        Assert.Equal(smuggled, upstream[0].BodyText);
    }

    // RFC 9112 §8: a request whose body the client cut short must never reach the origin looking complete.
    [Theory]
    [MemberData(nameof(PartialBodies))]
    public async Task BodyCutByClient_UpstreamNeverSeesCompleteRequest(string mode, string partial)
    {
        var outcome = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            try
            {
                var request = await connection.ReadRequestAsync();
                outcome.TrySetResult(request is null ? "closed" : $"complete request:\n{request}");
            }
            catch (IOException)
            {
                outcome.TrySetResult("cut");
            }
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using (var client = await proxy.ConnectAsync())
        {
            await client.SendAsync($"POST /upload HTTP/1.1\r\nHost: client.test\r\n{partial}");
        }

        Assert.Contains(await outcome.Task.WaitAsync(Deadline.Io), new[] { "cut", "closed" });
    }

    // RFC 9112 §9.3 / RFC 9110 §15.2: an origin may answer before reading the body; the client still gets that answer.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task EarlyResponse_ClientGetsOriginAnswer(string mode)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        await client.SendAsync($"POST /early?s=10 HTTP/1.1\r\nHost: client.test\r\nContent-Length: 65536\r\n\r\n{new string('x', 65536)}");
        var response = await client.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        Assert.Equal(DownstreamBody.PatternText(10), response.BodyText);
    }
}
