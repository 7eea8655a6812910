using System.Net.WebSockets;
using System.Security.Cryptography;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Tunnels;

/// <summary>
/// Real WebSocket sessions (RFC 6455) through the proxy, in every mode: <see cref="ClientWebSocket"/> on one side, the
/// bundled origin's Kestrel WebSocket echo (<c>/ws</c>) on the other.
/// </summary>
public sealed class WebSocketTunnelTests
{
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Echo_TextBinaryLargeAndFragmentedMessages_ThenCloseHandshake(string mode)
    {
        await using var hosts = await ProxiedDownstream.StartAsync(mode);
        using var socket = await ConnectAsync(hosts.Proxy, "/ws");

        await WebSocketClient.SendAsync(socket, Encoding.UTF8.GetBytes("hello"), WebSocketMessageType.Text);
        var text = await WebSocketClient.ReceiveMessageAsync(socket);
        Assert.Equal(WebSocketMessageType.Text, text.Type);
        Assert.Equal("hello", Encoding.UTF8.GetString(text.Payload));

        // Larger than every buffer on the way, so it crosses many reads and writes of the tunnel.
        var large = RandomNumberGenerator.GetBytes(3 * 1024 * 1024 + 17);
        await WebSocketClient.SendAsync(socket, large, WebSocketMessageType.Binary);
        var echoed = await WebSocketClient.ReceiveMessageAsync(socket);
        Assert.Equal(WebSocketMessageType.Binary, echoed.Type);
        Assert.True(large.AsSpan().SequenceEqual(echoed.Payload), "The large message came back altered.");

        // RFC 6455 §5.4: one message in three frames.
        var parts = new[] { "frag", "ment", "ed" };
        for (var i = 0; i < parts.Length; i++)
        {
            await Deadline.RunAsync(
                token => socket.SendAsync(Encoding.UTF8.GetBytes(parts[i]).AsMemory(), WebSocketMessageType.Text, endOfMessage: i == parts.Length - 1, token),
                "A fragment send");
        }

        Assert.Equal("fragmented", Encoding.UTF8.GetString((await WebSocketClient.ReceiveMessageAsync(socket)).Payload));

        // RFC 6455 §7.1.2: the close handshake goes through, with its status and reason.
        await Deadline.RunAsync(token => new ValueTask(socket.CloseAsync(WebSocketCloseStatus.NormalClosure, "bye", token)), "The close handshake");
        Assert.Equal(WebSocketState.Closed, socket.State);
        Assert.Equal(WebSocketCloseStatus.NormalClosure, socket.CloseStatus);
        Assert.Equal("bye", socket.CloseStatusDescription);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task OriginAborts_ClientSeesTheConnectionEnd_AndTheProxyGoesOn(string mode)
    {
        await using var hosts = await ProxiedDownstream.StartAsync(mode);
        using var socket = await ConnectAsync(hosts.Proxy, "/ws?abort=1");

        await WebSocketClient.SendAsync(socket, "last"u8.ToArray(), WebSocketMessageType.Text);
        Assert.Equal("last", Encoding.UTF8.GetString((await WebSocketClient.ReceiveMessageAsync(socket)).Payload));
        await WebSocketClient.SendAsync(socket, "aborts"u8.ToArray(), WebSocketMessageType.Text);
        await Assert.ThrowsAsync<WebSocketException>(() => WebSocketClient.ReceiveMessageAsync(socket));

        await using var client = await hosts.ConnectAsync();
        await client.SendAsync("GET /?s=10 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        Assert.Equal(200, (await client.ReadResponseAsync()).StatusCode);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task IdleTunnel_ClosedAfterTunnelIdleTimeout(string mode)
    {
        await using var hosts = await ProxiedDownstream.StartAsync(mode, "timeouts.tunnelIdleMs=300");
        using var socket = await ConnectAsync(hosts.Proxy, "/ws?hold=1");
        Assert.Equal(WebSocketState.Open, socket.State);

        // The origin never answers and the client sends nothing: only the idle timeout ends this.
        await Assert.ThrowsAsync<WebSocketException>(() => WebSocketClient.ReceiveMessageAsync(socket));
    }

    /// <summary>A tunnel has no message boundary to drain to: stopping closes it at once, well before the shutdown timeout.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ProxyStops_TunnelClosedWithoutWaitingForShutdownTimeout(string mode)
    {
        await using var hosts = await ProxiedDownstream.StartAsync(mode, "shutdownTimeoutMs=60000");
        using var socket = await ConnectAsync(hosts.Proxy, "/ws");
        await WebSocketClient.SendAsync(socket, "before"u8.ToArray(), WebSocketMessageType.Text);
        Assert.Equal("before", Encoding.UTF8.GetString((await WebSocketClient.ReceiveMessageAsync(socket)).Payload));

        // Neither bound comes near the 60-s shutdown timeout, nor do they meet: a tunnel left open fails the wait.
        using var stopLimit = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await hosts.Proxy.StopAsync(stopLimit.Token).WaitAsync(TimeSpan.FromSeconds(15));

        await Assert.ThrowsAsync<WebSocketException>(() => WebSocketClient.ReceiveMessageAsync(socket));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task PlainRequestToWebSocketEndpoint_Gets426_ConnectionStaysHttp(string mode)
    {
        await using var hosts = await ProxiedDownstream.StartAsync(mode);
        await using var client = await hosts.ConnectAsync();

        await client.SendAsync("GET /ws HTTP/1.1\r\nHost: client.test\r\n\r\n");
        Assert.Equal(426, (await client.ReadResponseAsync()).StatusCode);
        await client.SendAsync("GET /?s=10 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var next = await client.ReadResponseAsync();
        Assert.Equal(200, next.StatusCode);
        Assert.Equal(10, next.Body.Length);
    }

    private static Task<ClientWebSocket> ConnectAsync(HostedApp proxy, string pathAndQuery)
        => WebSocketClient.ConnectAsync(new Uri($"ws://{proxy.Authority}{pathAndQuery}"));
}
