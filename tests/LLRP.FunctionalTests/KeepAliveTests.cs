using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests;

/// <summary>RFC 9112 §9.3 and §9.6: persistence and closing of client and upstream connections.</summary>
public sealed class KeepAliveTests
{
    public static TheoryData<string, string> Http10Requests => LlrpModes.Cross(
        "GET /?s=5 HTTP/1.0\r\n\r\n",
        "GET /?s=5 HTTP/1.0\r\nHost: client.test\r\nConnection: close\r\n\r\n");

    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task SequentialRequests_AllAnsweredOnOneConnection(string mode)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        for (var size = 0; size < 50; size++)
        {
            await client.SendAsync($"GET /?s={size} HTTP/1.1\r\nHost: client.test\r\n\r\n");
            var response = await client.ReadResponseAsync();
            Assert.Equal(DownstreamBody.PatternText(size), response.BodyText);
        }
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task SequentialRequests_ReuseOneUpstreamConnection(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        for (var i = 0; i < 5; i++)
        {
            await client.SendAsync($"GET /{i} HTTP/1.1\r\nHost: client.test\r\n\r\n");
            Assert.Equal("ok", (await client.ReadResponseAsync()).BodyText);
        }

        Assert.Single(origin.Connections);
        Assert.Equal(["/0", "/1", "/2", "/3", "/4"], origin.Requests.Select(request => request.Target));
    }

    // RFC 9112 §9.6: after a request with "close", the server says so in its response and closes.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ConnectionClose_ResponseSaysCloseThenConnectionCloses(string mode)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        await client.SendAsync("GET /?s=5 HTTP/1.1\r\nHost: client.test\r\nConnection: close\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal("abcde", response.BodyText);
        Assert.Contains("close", response.Head.Tokens("Connection"));
        await client.AssertClosedByPeerAsync();
    }

    // RFC 9112 §9.6: after a request with "close", the server must not process further requests on that connection.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ConnectionClose_PipelinedRequestsAfterItIgnored(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(
            "GET /first HTTP/1.1\r\nHost: client.test\r\nConnection: close\r\n\r\n"
            + "GET /second HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal("ok", response.BodyText);
        await client.AssertClosedByPeerAsync();
        Assert.Equal("/first", origin.SingleRequest().Target);
    }

    // RFC 9112 §9.3: an HTTP/1.0 connection does not persist unless the client asked for keep-alive.
    [Theory]
    [MemberData(nameof(Http10Requests))]
    public async Task Http10WithoutKeepAlive_ClosedAfterResponse(string mode, string request)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        await client.SendAsync(request);
        var response = await client.ReadResponseAsync();

        Assert.Equal("abcde", response.BodyText);
        await client.AssertClosedByPeerAsync();
    }

    // RFC 9112 Appendix C.2.2: an HTTP/1.0 client's keep-alive is honoured when the body length is known.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Http10KeepAlive_ContentLengthResponseKeepsConnectionOpen(string mode)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        await client.SendAsync("GET /?s=5 HTTP/1.0\r\nHost: client.test\r\nConnection: keep-alive\r\n\r\n");
        var first = await client.ReadResponseAsync();
        await client.SendAsync("GET /?s=3 HTTP/1.0\r\nHost: client.test\r\nConnection: keep-alive\r\n\r\n");
        var second = await client.ReadResponseAsync();

        Assert.Equal(BodyFraming.ContentLength, first.Framing);
        Assert.Contains("keep-alive", first.Head.Tokens("Connection"));
        Assert.Equal("abcde", first.BodyText);
        Assert.Equal("abc", second.BodyText);
    }

    // RFC 9112 §9.6: a connection the origin closes with "Connection: close" is never used again
    // (the proxy may close the client connection too, but must then say so).
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task UpstreamConnectionClose_NextRequestUsesNewUpstreamConnection(string mode)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync($"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\n{connection.Index}");
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var firstClient = await proxy.ConnectAsync();

        await firstClient.SendAsync("GET /first HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var first = await firstClient.ReadResponseAsync();
        await using var secondClient = first.Head.Tokens("Connection").Contains("close") ? await proxy.ConnectAsync() : firstClient;
        await secondClient.SendAsync("GET /second HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var second = await secondClient.ReadResponseAsync();

        Assert.Equal("0", first.BodyText);
        Assert.Equal("1", second.BodyText);
        Assert.Equal(2, origin.Connections.Count);
    }
}
