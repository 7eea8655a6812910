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
        => Assert.True(WebSocketOnly.Accepts(Request("GET", "HTTP/1.1", fields)));

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
        => Assert.False(WebSocketOnly.Accepts(Request("POST", "HTTP/1.1", fields)));

    /// <summary>Upgrade is an HTTP/1.1 mechanism; an HTTP/1.0 request is forwarded as it would be without it.</summary>
    [Fact]
    public void Refuses_Http10()
        => Assert.False(WebSocketOnly.Accepts(Request("GET", "HTTP/1.0", "Connection: upgrade\r\nUpgrade: websocket\r\n")));

    [Fact]
    public void NoProtocols_RefusesEverything()
        => Assert.False(new UpgradeProtocols([]).Accepts(Request("GET", "HTTP/1.1", "Connection: upgrade\r\nUpgrade: websocket\r\n")));

    [Fact]
    public void ListedProtocol_AcceptedWithAnyVersion()
        => Assert.True(new UpgradeProtocols(["example", "websocket"]).Accepts(Request("GET", "HTTP/1.1", "Connection: upgrade\r\nUpgrade: example/2, websocket\r\n")));

    [Theory]
    [InlineData("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n", true)]
    [InlineData("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n", false)]
    [InlineData("HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\n\r\n", false)]
    [InlineData("HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: h2c\r\n\r\n", false)]
    [InlineData("HTTP/1.1 200 OK\r\nConnection: upgrade\r\nUpgrade: websocket\r\nContent-Length: 0\r\n\r\n", false)]
    public void AcceptsSwitch_OnlyProper101(string response, bool accepted)
    {
        var head = new ResponseHead();
        Assert.True(ResponseHeadParser.TryParse(new ReadOnlySequence<byte>(Text.Bytes(response)), head, 64 * 1024, out _));

        Assert.Equal(accepted, WebSocketOnly.AcceptsSwitch(head));
    }

    private static RequestHead Request(string method, string version, string fields)
    {
        var head = new RequestHead();
        Assert.True(RequestHeadParser.TryParse(
            new ReadOnlySequence<byte>(Text.Bytes($"{method} /chat {version}\r\nHost: h\r\n{fields}\r\n")), head, RequestParsing.DefaultLimits, out _));
        return head;
    }
}
