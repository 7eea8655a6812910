using System.Buffers;
using LLRP.Http1;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http1;

/// <summary>RFC 9110 §7.8 and §15.2.2: which upgrade requests become tunnels, and which <c>101</c> answers are accepted.</summary>
public sealed class UpgradeProtocolsTests
{
    private static readonly UpgradeProtocols WebSocketOnly = new(["websocket"]);

    [Theory]
    [InlineData("Connection: Upgrade\r\nUpgrade: websocket\r\n")]
    [InlineData("Connection: keep-alive, upgrade\r\nUpgrade: WebSocket\r\n")]
    [InlineData("Connection: keep-alive\r\nConnection: UPGRADE\r\nUpgrade: websocket/13\r\n")]
    [InlineData("Connection: upgrade\r\nUpgrade: websocket, \r\nContent-Length: 0\r\n")]
    public void Accepts_WebSocketUpgrade(string fields)
        => Assert.Equal(1UL, WebSocketOnly.Accepts(Request("GET", "HTTP/1.1", fields)));

    [Theory]
    [InlineData("Upgrade: websocket\r\n")]
    [InlineData("Connection: upgrade\r\n")]
    [InlineData("Connection: upgrade\r\nUpgrade: h2c\r\n")]
    [InlineData("Connection: upgrade\r\nUpgrade: websocket, h2c\r\n")]
    [InlineData("Connection: upgrade\r\nUpgrade: websocket\r\nUpgrade: example/1\r\n")]
    [InlineData("Connection: upgrade\r\nUpgrade: websocket/\r\n")]
    [InlineData("Connection: upgrade\r\nUpgrade: web socket\r\n")]
    [InlineData("Connection: upgrade\r\nUpgrade: websocket\r\nContent-Length: 3\r\n")]
    [InlineData("Connection: upgrade\r\nUpgrade: websocket\r\nTransfer-Encoding: chunked\r\n")]
    public void Refuses_WhatIsNoTunnelledUpgrade(string fields)
        => Assert.Equal(0UL, WebSocketOnly.Accepts(Request("POST", "HTTP/1.1", fields)));

    /// <summary>Upgrade is an HTTP/1.1 mechanism; an HTTP/1.0 request is forwarded as it would be without it.</summary>
    [Fact]
    public void Refuses_Http10()
        => Assert.Equal(0UL, WebSocketOnly.Accepts(Request("GET", "HTTP/1.0", "Connection: upgrade\r\nUpgrade: websocket\r\n")));

    [Fact]
    public void NoProtocols_RefusesEverything()
        => Assert.Equal(0UL, new UpgradeProtocols([]).Accepts(Request("GET", "HTTP/1.1", "Connection: upgrade\r\nUpgrade: websocket\r\n")));

    /// <summary>Each protocol asked for is one bit, by its place in the list.</summary>
    [Theory]
    [InlineData("Upgrade: example/2, websocket\r\n", 3UL)]
    [InlineData("Upgrade: websocket\r\n", 2UL)]
    [InlineData("Upgrade: Example\r\n", 1UL)]
    public void ListedProtocols_AcceptedWithAnyVersion_AsAMask(string upgrade, ulong requested)
        => Assert.Equal(requested, new UpgradeProtocols(["example", "websocket"]).Accepts(Request("GET", "HTTP/1.1", "Connection: upgrade\r\n" + upgrade)));

    [Theory]
    [InlineData("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n", true)]
    [InlineData("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n", false)]
    [InlineData("HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\n\r\n", false)]
    [InlineData("HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: h2c\r\n\r\n", false)]
    [InlineData("HTTP/1.1 200 OK\r\nConnection: upgrade\r\nUpgrade: websocket\r\nContent-Length: 0\r\n\r\n", false)]
    public void AcceptsSwitch_OnlyProper101(string response, bool accepted)
        => Assert.Equal(accepted, WebSocketOnly.AcceptsSwitch(Response(response), requested: 1));

    /// <summary>RFC 9110 §7.8: a server must not switch to a protocol the client did not ask for, listed here or not.</summary>
    [Theory]
    [InlineData("Upgrade: websocket", 2UL, true)]
    [InlineData("Upgrade: example", 2UL, false)]
    [InlineData("Upgrade: example, websocket", 2UL, false)]
    [InlineData("Upgrade: example/2", 3UL, true)]
    [InlineData("Upgrade: websocket", 0UL, false)]
    public void AcceptsSwitch_OnlyToAProtocolAskedFor(string upgrade, ulong requested, bool accepted)
        => Assert.Equal(accepted, new UpgradeProtocols(["example", "websocket"]).AcceptsSwitch(
            Response($"HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\n{upgrade}\r\n\r\n"), requested));

    private static ResponseHead Response(string response)
    {
        var head = new ResponseHead();
        Assert.True(ResponseHeadParser.TryParse(new ReadOnlySequence<byte>(Text.Bytes(response)), head, 64 * 1024, out _));
        return head;
    }

    private static RequestHead Request(string method, string version, string fields)
    {
        var head = new RequestHead();
        Assert.True(RequestHeadParser.TryParse(
            new ReadOnlySequence<byte>(Text.Bytes($"{method} /chat {version}\r\nHost: h\r\n{fields}\r\n")), head, RequestParsing.DefaultLimits, out _));
        return head;
    }
}
