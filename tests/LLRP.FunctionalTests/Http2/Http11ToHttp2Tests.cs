using System.Net.WebSockets;
using System.Text;
using LLRP.Downstream;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Hosting;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// An HTTP/1.1 client's requests routed to a cluster at <c>HttpRequest:Version</c> 2 with <c>RequestVersionExact</c> go
/// over HTTP/2 (h2c with prior knowledge) in the modes over HttpClient: the bundled origin speaks h2c only, so any answer
/// proves HTTP/2, and <c>/echo</c> names the protocol it received. The connection-specific fields of the HTTP/1.1
/// request (<c>Connection</c>, <c>Keep-Alive</c>) are not sent over HTTP/2 (RFC 9113 §8.2.2), or the origin would have
/// failed the stream. Raw mode keeps its HTTP/1.1 upstream connections (a documented limit).
/// </summary>
public sealed class Http11ToHttp2Tests
{
    public static TheoryData<string> HttpClientModes => new(
        LlrpModes.HttpClient, LlrpModes.HttpClientSharedRoundRobin, LlrpModes.HttpClientWithContext, LlrpModes.Yarp, LlrpModes.YarpSharedRoundRobin);

    [Theory]
    [MemberData(nameof(HttpClientModes))]
    public async Task GetThenPostOnOneConnection_ReachTheH2cOnlyOriginOverHttp2(string mode)
    {
        await using var origin = await HostedApp.StartAsync(DownstreamHost.Build(["--urls=http://127.0.0.1:0", "--Kestrel:EndpointDefaults:Protocols=Http2"]));
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
    /// An upgrade request to such a cluster keeps HTTP/1.1, where its <c>Upgrade</c> has a meaning (RFC 9110 §7.8; over
    /// HTTP/2 the field is connection-specific, RFC 9113 §8.2.2): the WebSocket session opens on an origin that speaks both.
    /// </summary>
    [Theory]
    [MemberData(nameof(HttpClientModes))]
    public async Task WebSocketUpgrade_StaysOnHttp11(string mode)
    {
        await using var origin = await TestHosts.StartDownstreamAsync();
        await using var proxy = await StartProxyAsync(origin, mode);
        using var socket = await WebSocketClient.ConnectAsync(new Uri($"ws://{proxy.Authority}/ws"));

        await WebSocketClient.SendAsync(socket, "hello"u8.ToArray(), WebSocketMessageType.Text);
        Assert.Equal("hello", Encoding.UTF8.GetString((await WebSocketClient.ReceiveMessageAsync(socket)).Payload));
    }

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
}
