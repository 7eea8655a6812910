using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests;

/// <summary>RFC 9110 §7.6.1: connection-specific fields stop at the proxy, in both directions.</summary>
public sealed class HopByHopTests
{
    private static readonly string[] ConnectionOptionsAProxyMaySend = ["close", "keep-alive", "te"];

    public static TheoryData<string, string, string> ConnectionNamedFields => LlrpModes.Cross(
        ("Connection: X-Foo, close\r\nX-Foo: 1\r\n", "X-Foo"),
        ("Connection: keep-alive, x-foo\r\nX-FOO: 1\r\n", "X-Foo"),
        ("Connection: X-Bar\r\nConnection: X-Foo\r\nX-Foo: 1\r\nX-Bar: 2\r\n", "X-Foo"),
        ("Connection: X-Bar\r\nConnection: X-Foo\r\nX-Foo: 1\r\nX-Bar: 2\r\n", "X-Bar"));

    public static TheoryData<string, string> HopByHopFields => LlrpModes.Cross(
        "Keep-Alive: timeout=5, max=100",
        "Proxy-Connection: keep-alive",
        "Upgrade: example/1",
        "TE: gzip",
        "TE: deflate;q=0.5, gzip");

    public static TheoryData<string, string> TeListsWithTrailers => LlrpModes.Cross(
        "trailers",
        "gzip, trailers",
        "trailers, deflate;q=0.5");

    [Theory]
    [MemberData(nameof(ConnectionNamedFields))]
    public async Task Request_FieldsNamedInConnectionRemoved(string mode, string fields, string named)
    {
        var exchange = await ForwardedExchange.RunAsync($"GET / HTTP/1.1\r\nHost: client.test\r\n{fields}X-Kept: yes\r\n\r\n", mode);

        var upstream = exchange.Upstream.Head;
        Assert.False(upstream.Contains(named), $"'{named}' was forwarded:\n{upstream}");
        Assert.All(upstream.Tokens("Connection"), option => Assert.Contains(option, ConnectionOptionsAProxyMaySend));
        Assert.Equal("yes", upstream.Get("X-Kept"));
    }

    [Theory]
    [MemberData(nameof(HopByHopFields))]
    public async Task Request_HopByHopFieldRemoved(string mode, string field)
    {
        var exchange = await ForwardedExchange.RunAsync($"GET / HTTP/1.1\r\nHost: client.test\r\n{field}\r\nX-Kept: yes\r\n\r\n", mode);

        var name = field[..field.IndexOf(':')];
        Assert.False(exchange.Upstream.Head.Contains(name), $"'{name}' was forwarded:\n{exchange.Upstream.Head}");
        Assert.Equal("yes", exchange.Upstream.Head.Get("X-Kept"));
    }

    // RFC 9110 §10.1.4: "trailers" is the one TE member a proxy passes on, so that trailers can reach it.
    [Theory]
    [MemberData(nameof(TeListsWithTrailers))]
    public async Task Request_TeTrailersForwarded(string mode, string te)
    {
        var exchange = await ForwardedExchange.RunAsync($"GET / HTTP/1.1\r\nHost: client.test\r\nTE: {te}\r\n\r\n", mode);

        Assert.Equal("trailers", exchange.Upstream.Head.Get("TE"));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Response_HopByHopFieldsRemoved(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(
            "HTTP/1.1 200 OK\r\nConnection: X-Secret, keep-alive\r\nX-Secret: 1\r\nKeep-Alive: timeout=5\r\n"
            + "Upgrade: example/1\r\nProxy-Connection: keep-alive\r\nX-Kept: yes\r\nContent-Length: 2\r\n\r\nok");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET / HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal("ok", response.BodyText);
        Assert.Equal("yes", response.Head.Get("X-Kept"));
        foreach (var name in new[] { "X-Secret", "Keep-Alive", "Upgrade", "Proxy-Connection" })
        {
            Assert.False(response.Head.Contains(name), $"'{name}' was forwarded:\n{response.Head}");
        }

        Assert.All(response.Head.Tokens("Connection"), option => Assert.Contains(option, ConnectionOptionsAProxyMaySend));
    }

    // RFC 9112 §7.1: the proxy decodes the origin's chunks and re-encodes them; chunk extensions do not pass.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Response_TransferEncodingRecomputed(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;origin-ext=1\r\nhello\r\n1;origin-ext=2\r\n \r\n5\r\nworld\r\n0\r\n\r\n");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET / HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(BodyFraming.Chunked, response.Framing);
        Assert.Equal("chunked", response.Head.Get("Transfer-Encoding"));
        Assert.Equal("hello world", response.BodyText);
        Assert.DoesNotContain("origin-ext", Encoding.Latin1.GetString(client.Received));
    }
}
