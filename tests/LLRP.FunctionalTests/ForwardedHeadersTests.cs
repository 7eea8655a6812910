using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests;

/// <summary>X-Forwarded-For/-Proto/-Host and Via (RFC 9110 §7.6.3) on forwarded requests.</summary>
public sealed class ForwardedHeadersTests
{
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task XForwardedFor_ClientAddressWhenAbsent(string mode)
    {
        var exchange = await ForwardedExchange.RunAsync("GET / HTTP/1.1\r\nHost: client.test\r\n\r\n", mode);

        Assert.Equal("127.0.0.1", exchange.Upstream.Head.Get("X-Forwarded-For"));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task XForwardedFor_ClientAddressAppended(string mode)
    {
        var exchange = await ForwardedExchange.RunAsync("GET / HTTP/1.1\r\nHost: client.test\r\nX-Forwarded-For: 10.0.0.1\r\n\r\n", mode);

        Assert.Equal("10.0.0.1, 127.0.0.1", exchange.Upstream.Head.Get("X-Forwarded-For"));
    }

    // RFC 9110 §5.3: several lines of a list field combine, in order, into one.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task XForwardedFor_IncomingLinesCombinedInOrder(string mode)
    {
        var exchange = await ForwardedExchange.RunAsync(
            "GET / HTTP/1.1\r\nX-Forwarded-For: 10.0.0.1\r\nHost: client.test\r\nX-Forwarded-For: 10.0.0.2, 10.0.0.3\r\n\r\n",
            mode);

        Assert.Equal("10.0.0.1, 10.0.0.2, 10.0.0.3, 127.0.0.1", Assert.Single(exchange.Upstream.Head.GetAll("X-Forwarded-For")));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task XForwardedProto_ReplacesIncoming(string mode)
    {
        var exchange = await ForwardedExchange.RunAsync("GET / HTTP/1.1\r\nHost: client.test\r\nX-Forwarded-Proto: https\r\n\r\n", mode);

        Assert.Equal("http", Assert.Single(exchange.Upstream.Head.GetAll("X-Forwarded-Proto")));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task XForwardedHost_SetToClientHost(string mode)
    {
        var exchange = await ForwardedExchange.RunAsync(
            "GET / HTTP/1.1\r\nHost: client.test:8443\r\nX-Forwarded-Host: spoofed.test\r\n\r\n",
            mode);

        Assert.Equal("client.test:8443", Assert.Single(exchange.Upstream.Head.GetAll("X-Forwarded-Host")));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ForwardedHeaders_NoneAddedWhenDisabled(string mode)
    {
        var exchange = await ForwardedExchange.RunAsync("GET / HTTP/1.1\r\nHost: client.test\r\n\r\n", mode, "forwardedHeaders=false");

        foreach (var name in new[] { "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host" })
        {
            Assert.False(exchange.Upstream.Head.Contains(name), $"'{name}' was added:\n{exchange.Upstream.Head}");
        }
    }

    // RFC 9110 §7.6.3: a proxy MUST send an appropriate Via in each message it forwards.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Via_Added(string mode)
    {
        var exchange = await ForwardedExchange.RunAsync("GET / HTTP/1.1\r\nHost: client.test\r\n\r\n", mode);

        Assert.Equal("1.1 llrp", exchange.Upstream.Head.Get("Via"));
    }

    // RFC 9110 §7.6.3: each recipient appends its own entry to the received Via.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Via_AppendedToIncoming(string mode)
    {
        var exchange = await ForwardedExchange.RunAsync("GET / HTTP/1.1\r\nHost: client.test\r\nVia: 1.0 fred\r\n\r\n", mode);

        Assert.Equal("1.0 fred, 1.1 llrp", Assert.Single(exchange.Upstream.Head.GetAll("Via")));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Via_NotAddedWhenDisabled(string mode)
    {
        var exchange = await ForwardedExchange.RunAsync("GET / HTTP/1.1\r\nHost: client.test\r\n\r\n", mode, "via=false");

        Assert.False(exchange.Upstream.Head.Contains("Via"), $"Via was added:\n{exchange.Upstream.Head}");
    }
}
