using System.Net.WebSockets;
using System.Text;
using LLRP.Downstream;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Hosting;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// An HTTP/1.1 client's requests routed to a cluster at <c>HttpRequest:Version</c> 2 with <c>RequestVersionExact</c> go
/// over HTTP/2 (h2c with prior knowledge) in every mode: in the modes over HttpClient through their forwarder, in raw mode
/// through the HttpClient forwarder it makes for such a route (its own HTTP/2 client carries HTTP/2 clients' streams only). The bundled origin
/// started with HTTP/2 only speaks h2c, so any answer proves HTTP/2, and <c>/echo</c> names the protocol it received. The
/// connection-specific fields of the HTTP/1.1 request (<c>Connection</c>, <c>Keep-Alive</c>, the fields <c>Connection</c>
/// names) are not sent over HTTP/2 (RFC 9113 §8.2.2), or the origin would have failed the stream.
/// </summary>
public sealed class Http11ToHttp2Tests
{
    private const string Http2Host = "h2.test";
    private const string Http11Host = "h1.test";

    private static readonly string[] OverHttpClient =
        [LlrpModes.HttpClient, LlrpModes.HttpClientSharedRoundRobin, LlrpModes.HttpClientWithContext, LlrpModes.Yarp, LlrpModes.YarpSharedRoundRobin];

    /// <summary>
    /// Every raw upstream connection strategy, over each transport, and every mode over HttpClient; raw mode's own HTTP/2
    /// client carries HTTP/2 clients' streams only, so naming it would run the same path again.
    /// </summary>
    public static TheoryData<string> Modes => new([.. LlrpModes.RawOnly, .. OverHttpClient]);

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task GetThenPostOnOneConnection_ReachTheH2cOnlyOriginOverHttp2(string mode)
    {
        await using var origin = await StartH2cOnlyOriginAsync();
        await using var proxy = await StartProxyAsync(origin, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /echo HTTP/1.1\r\nHost: example\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n");
        var get = await client.ReadResponseAsync();
        Assert.Equal(200, get.StatusCode);
        Assert.Equal("HTTP/2", get.Head.Get("X-Echo-Protocol"));
        Assert.Equal("GET", get.Head.Get("X-Echo-Method"));

        const string body = "a body sent over HTTP/1.1, received over HTTP/2";
        await client.SendAsync($"POST /echo HTTP/1.1\r\nHost: example\r\nContent-Length: {body.Length}\r\n\r\n{body}");
        var post = await client.ReadResponseAsync("POST");
        Assert.Equal(200, post.StatusCode);
        Assert.Equal("HTTP/2", post.Head.Get("X-Echo-Protocol"));
        Assert.Equal(body, Encoding.Latin1.GetString(post.Body));
    }

    /// <summary>
    /// The hop-by-hop fields (RFC 9110 §7.6.1: <c>Connection</c>, <c>Keep-Alive</c> and the field <c>Connection</c> names)
    /// stay on the client's connection; an end-to-end field reaches the origin over HTTP/2.
    /// </summary>
    [Theory]
    [MemberData(nameof(Modes))]
    public async Task Get_HopByHopFieldsStayBehind_EndToEndFieldReachesTheOriginOverHttp2(string mode)
    {
        await using var origin = await StartH2cOnlyOriginAsync();
        await using var proxy = await StartProxyAsync(origin, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /headers HTTP/1.1\r\nHost: example\r\nConnection: keep-alive, X-Hop\r\nKeep-Alive: timeout=5\r\nX-Hop: 1\r\nX-End: 2\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        var received = response.BodyText.Split('\n');
        Assert.Contains("x-end: 2", received);
        Assert.DoesNotContain(received, line => line.StartsWith("x-hop:", StringComparison.Ordinal));
        Assert.DoesNotContain(received, line => line.StartsWith("connection:", StringComparison.Ordinal));
        Assert.DoesNotContain(received, line => line.StartsWith("keep-alive:", StringComparison.Ordinal));
    }

    /// <summary>A chunked request body (RFC 9112 §7.1) is streamed to the origin as HTTP/2 DATA frames, whole.</summary>
    [Theory]
    [MemberData(nameof(Modes))]
    public async Task PostChunked_BodyReachesTheOriginOverHttp2(string mode)
    {
        await using var origin = await StartH2cOnlyOriginAsync();
        await using var proxy = await StartProxyAsync(origin, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("POST /echo HTTP/1.1\r\nHost: example\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n7\r\n-second\r\n0\r\n\r\n");
        var response = await client.ReadResponseAsync("POST");

        Assert.Equal(200, response.StatusCode);
        Assert.Equal("HTTP/2", response.Head.Get("X-Echo-Protocol"));
        Assert.Equal("first-second", response.BodyText);
    }

    /// <summary>
    /// Full duplex (RFC 9113 §8.1): the origin's response head comes before the request body, which the client sends only
    /// once it has that head; the body still reaches the origin, whose echo of it ends the response, and the connection
    /// goes on.
    /// </summary>
    [Theory]
    [MemberData(nameof(Modes))]
    public async Task PostChunked_ResponseHeadBeforeTheBody_BodyStillReachesTheOriginOverHttp2(string mode)
    {
        await using var origin = await StartH2cOnlyOriginAsync();
        await using var proxy = await StartProxyAsync(origin, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("POST /echo HTTP/1.1\r\nHost: example\r\nX-Echo-Head-First: 1\r\nTransfer-Encoding: chunked\r\n\r\n");
        var head = await client.ReadResponseHeadAsync();
        await client.SendAsync("5\r\nfirst\r\n7\r\n-second\r\n0\r\n\r\n");
        var response = await client.ReadBodyAsync(head, "POST");

        Assert.Equal(200, response.StatusCode);
        Assert.Equal("HTTP/2", response.Head.Get("X-Echo-Protocol"));
        Assert.Equal("first-second", response.BodyText);
        await client.SendAsync("GET /echo HTTP/1.1\r\nHost: example\r\n\r\n");
        Assert.Equal(200, (await client.ReadResponseAsync()).StatusCode);
    }

    /// <summary>
    /// <c>Expect: 100-continue</c> (RFC 9110 §10.1.1): the client gets its <c>100</c> (the proxy's own where HttpClient
    /// keeps the origin's interim responses), then the final response to the body it sent.
    /// </summary>
    [Theory]
    [MemberData(nameof(Modes))]
    public async Task ExpectContinue_ClientGets100ThenTheAnswerOverHttp2(string mode)
    {
        await using var origin = await StartH2cOnlyOriginAsync();
        await using var proxy = await StartProxyAsync(origin, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("POST /echo HTTP/1.1\r\nHost: example\r\nExpect: 100-continue\r\nContent-Length: 13\r\n\r\n");
        var interim = await client.ReadResponseAsync();
        await client.SendAsync("after-100-ok!");
        var final = await client.ReadResponseAsync("POST");

        Assert.Equal(100, interim.StatusCode);
        Assert.Equal(200, final.StatusCode);
        Assert.Equal("HTTP/2", final.Head.Get("X-Echo-Protocol"));
        Assert.Equal("after-100-ok!", final.BodyText);
    }

    /// <summary>
    /// Pipelined requests (RFC 9112 §9.3.2) alternating between a cluster at HTTP/2 and one at HTTP/1.1, on one client
    /// connection: each reaches its own origin over its own protocol, and the answers come back in order.
    /// </summary>
    [Theory]
    [MemberData(nameof(Modes))]
    public async Task PipelinedRequestsToBothClusters_AnsweredInOrder_EachOverItsClustersProtocol(string mode)
    {
        await using var h2Origin = await StartH2cOnlyOriginAsync();
        await using var h11Origin = await TestHosts.StartDownstreamAsync();
        await using var proxy = await StartTwoClusterProxyAsync(h2Origin, h11Origin, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(
            $"GET /echo?n=1 HTTP/1.1\r\nHost: {Http2Host}\r\n\r\n" +
            $"GET /echo?n=2 HTTP/1.1\r\nHost: {Http11Host}\r\n\r\n" +
            $"POST /echo?n=3 HTTP/1.1\r\nHost: {Http2Host}\r\nContent-Length: 5\r\n\r\nthree" +
            $"GET /echo?n=4 HTTP/1.1\r\nHost: {Http11Host}\r\n\r\n" +
            $"POST /echo?n=5 HTTP/1.1\r\nHost: {Http11Host}\r\nContent-Length: 4\r\n\r\nfive" +
            $"GET /echo?n=6 HTTP/1.1\r\nHost: {Http2Host}\r\n\r\n");
        (string Method, string Protocol, string Body)[] expected =
        [
            ("GET", "HTTP/2", ""), ("GET", "HTTP/1.1", ""), ("POST", "HTTP/2", "three"),
            ("GET", "HTTP/1.1", ""), ("POST", "HTTP/1.1", "five"), ("GET", "HTTP/2", ""),
        ];

        for (var i = 0; i < expected.Length; i++)
        {
            var (method, protocol, body) = expected[i];
            var response = await client.ReadResponseAsync(method);
            Assert.Equal(200, response.StatusCode);
            Assert.Equal($"/echo?n={i + 1}", response.Head.Get("X-Echo-Target"));
            Assert.Equal(protocol, response.Head.Get("X-Echo-Protocol"));
            Assert.Equal(body, response.BodyText);
        }
    }

    /// <summary>
    /// <c>OPTIONS *</c> (RFC 9112 §3.2.4) to a cluster at HTTP/2 cannot be sent by HttpClient: answered 501 and closed
    /// (RFC 9110 §15.6.2), in raw mode too, after the answer to the request before it, which went to the HTTP/1.1 cluster.
    /// </summary>
    [Theory]
    [MemberData(nameof(Modes))]
    public async Task AsteriskFormToHttp2Cluster_Answered501AfterThePipelinedRequestBefore(string mode)
    {
        await using var h2Origin = await StartH2cOnlyOriginAsync();
        await using var h11Origin = await TestHosts.StartDownstreamAsync();
        await using var proxy = await StartTwoClusterProxyAsync(h2Origin, h11Origin, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync($"GET /echo HTTP/1.1\r\nHost: {Http11Host}\r\n\r\nOPTIONS * HTTP/1.1\r\nHost: {Http2Host}\r\n\r\n");
        var first = await client.ReadResponseAsync();
        var options = await client.ReadResponseAsync();

        Assert.Equal(200, first.StatusCode);
        Assert.Equal("HTTP/1.1", first.Head.Get("X-Echo-Protocol"));
        Assert.Equal(501, options.StatusCode);
        Assert.Contains("close", options.Head.Tokens("Connection"));
        await client.AssertClosedByPeerAsync();
    }

    /// <summary>
    /// An upgrade request to such a cluster keeps HTTP/1.1, where its <c>Upgrade</c> has a meaning (RFC 9110 §7.8; over
    /// HTTP/2 the field is connection-specific, RFC 9113 §8.2.2): the WebSocket session opens on an origin that speaks both.
    /// </summary>
    [Theory]
    [MemberData(nameof(Modes))]
    public async Task WebSocketUpgrade_StaysOnHttp11(string mode)
    {
        await using var origin = await TestHosts.StartDownstreamAsync();
        await using var proxy = await StartProxyAsync(origin, mode);
        using var socket = await WebSocketClient.ConnectAsync(new Uri($"ws://{proxy.Authority}/ws"));

        await WebSocketClient.SendAsync(socket, "hello"u8.ToArray(), WebSocketMessageType.Text);
        Assert.Equal("hello", Encoding.UTF8.GetString((await WebSocketClient.ReceiveMessageAsync(socket)).Payload));
    }

    /// <summary>The bundled origin speaking h2c only (HTTP/2 by prior knowledge): an HTTP/1.1 request gets no answer from it.</summary>
    private static Task<HostedApp> StartH2cOnlyOriginAsync()
        => HostedApp.StartAsync(DownstreamHost.Build(["--urls=http://127.0.0.1:0", "--Kestrel:EndpointDefaults:Protocols=Http2"]));

    /// <summary>The proxy in <paramref name="mode"/>, every request routed to <paramref name="origin"/> at HTTP/2 with <c>RequestVersionExact</c>.</summary>
    internal static Task<HostedApp> StartProxyAsync(HostedApp origin, string mode) => HostedApp.StartAsync(ProxyHost.Build(
    [
        "--urls=http://127.0.0.1:0",
        "--ReverseProxy:Routes:all:ClusterId=h2",
        "--ReverseProxy:Routes:all:Match:Path={**any}",
        $"--ReverseProxy:Clusters:h2:Destinations:origin:Address={origin.Url}",
        "--ReverseProxy:Clusters:h2:HttpRequest:Version=2",
        "--ReverseProxy:Clusters:h2:HttpRequest:VersionPolicy=RequestVersionExact",
        .. LlrpModes.Settings(mode).Select(setting => "--" + setting),
    ]));

    /// <summary>
    /// The proxy in <paramref name="mode"/> with two routes by host: <see cref="Http2Host"/> to <paramref name="h2Origin"/>
    /// at HTTP/2 (<c>RequestVersionExact</c>), <see cref="Http11Host"/> to <paramref name="h11Origin"/> at HTTP/1.1.
    /// </summary>
    private static Task<HostedApp> StartTwoClusterProxyAsync(HostedApp h2Origin, HostedApp h11Origin, string mode) => HostedApp.StartAsync(ProxyHost.Build(
    [
        "--urls=http://127.0.0.1:0",
        "--ReverseProxy:Routes:two:ClusterId=h2",
        $"--ReverseProxy:Routes:two:Match:Hosts:0={Http2Host}",
        "--ReverseProxy:Routes:one:ClusterId=h11",
        $"--ReverseProxy:Routes:one:Match:Hosts:0={Http11Host}",
        $"--ReverseProxy:Clusters:h2:Destinations:origin:Address={h2Origin.Url}",
        "--ReverseProxy:Clusters:h2:HttpRequest:Version=2",
        "--ReverseProxy:Clusters:h2:HttpRequest:VersionPolicy=RequestVersionExact",
        $"--ReverseProxy:Clusters:h11:Destinations:origin:Address={h11Origin.Url}",
        .. LlrpModes.Settings(mode).Select(setting => "--" + setting),
    ]));
}
