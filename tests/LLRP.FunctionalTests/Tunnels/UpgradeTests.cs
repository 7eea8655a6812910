using System.Text;
using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Tunnels;

/// <summary>
/// RFC 9110 §7.8 and §15.2.2 on the wire, in every mode: what an upgrade request carries to the downstream, when a
/// <c>101</c> makes the connection a tunnel, and what stays an ordinary HTTP/1.1 exchange.
/// </summary>
public sealed class UpgradeTests
{
    internal const string WebSocketRequest =
        "GET /chat HTTP/1.1\r\nHost: client.test\r\nConnection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

    internal const string SwitchingProtocols =
        "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
        + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n";

    /// <summary>Modes whose client tunnels any protocol of <c>upgrade.protocols</c>; YARP's forwarder tunnels WebSocket only.</summary>
    public static TheoryData<string> ModesTunnellingAnyProtocol => new(LlrpModes.Every.Where(mode => mode != LlrpModes.Yarp));

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Switched_UpgradeFieldsForwarded_BytesRelayedBothWays(string mode)
    {
        var fromClient = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync(SwitchingProtocols + "from-origin");
            fromClient.SetResult(Encoding.Latin1.GetString(await connection.Reader.ReadExactlyAsync("from-client".Length)));
            await connection.SendAsync("after");
            await connection.Reader.ReadToEndAsync();
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(WebSocketRequest);
        var response = await client.ReadResponseAsync();

        Assert.Equal(101, response.StatusCode);
        Assert.Contains("upgrade", response.Head.Tokens("Connection"), StringComparer.OrdinalIgnoreCase);
        Assert.Equal("websocket", response.Head.Get("Upgrade"));
        Assert.Equal("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", response.Head.Get("Sec-WebSocket-Accept"));
        Assert.Equal("from-origin", Encoding.Latin1.GetString(await client.ReadExactlyAsync("from-origin".Length)));
        await client.SendAsync("from-client");
        Assert.Equal("from-client", await fromClient.Task.WaitAsync(Deadline.Io));
        Assert.Equal("after", Encoding.Latin1.GetString(await client.ReadExactlyAsync("after".Length)));

        var forwarded = origin.SingleRequest().Head;
        Assert.Contains("upgrade", forwarded.Tokens("Connection"), StringComparer.OrdinalIgnoreCase);
        Assert.Equal("websocket", forwarded.Get("Upgrade"));
        Assert.Equal("dGhlIHNhbXBsZSBub25jZQ==", forwarded.Get("Sec-WebSocket-Key"));
        Assert.Equal("13", forwarded.Get("Sec-WebSocket-Version"));
        await metrics.WaitForSumAsync("llrp.tunnels", 1);
        Assert.Equal(1, metrics.Sum("llrp.tunnels.active"));

        await client.DisposeAsync();
        await origin.ConnectionsEndedAsync();
        await metrics.WaitForSumAsync("llrp.tunnels.active", 0);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ClientHalfCloses_OriginGetsTheBytesAndTheEnd_RawModesStillRelayTheAnswer(string mode)
    {
        var received = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync(SwitchingProtocols);
            var rest = Encoding.Latin1.GetString(await connection.Reader.ReadToEndAsync());
            received.SetResult(rest);
            await SendIgnoringResetAsync(connection, "got:" + rest);
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(WebSocketRequest);
        Assert.Equal(101, (await client.ReadResponseAsync()).StatusCode);
        await client.SendAsync("ping");
        client.ShutdownSend();

        // The origin's read to the end returns, every byte before it: the client's end of stream reached it (RFC 9112 §9.6).
        Assert.Equal("ping", await received.Task.WaitAsync(Deadline.Io));
        await origin.ConnectionsEndedAsync();
        var rest = await ReadToEndOrResetAsync(client);
        if (LlrpModes.IsRaw(mode))
        {
            // A socket half-closes, so the answer sent after the client's end still arrives.
            Assert.Equal("got:ping", rest);
        }
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ClientAborts_OriginConnectionEnds(string mode)
    {
        var ended = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync(SwitchingProtocols);
            await ReadToEndIgnoringResetAsync(connection);
            ended.SetResult();
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        var client = await proxy.ConnectAsync();

        await client.SendAsync(WebSocketRequest);
        Assert.Equal(101, (await client.ReadResponseAsync()).StatusCode);
        client.Reset();

        await ended.Task.WaitAsync(Deadline.Io);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task OriginResets_ClientConnectionEnds(string mode)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync(SwitchingProtocols + "bye");
            connection.Reset();
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(WebSocketRequest);
        Assert.Equal(101, (await client.ReadResponseAsync()).StatusCode);
        Assert.Equal("bye", Encoding.Latin1.GetString(await client.ReadExactlyAsync(3)));
        Assert.Equal(string.Empty, await ReadToEndOrResetAsync(client));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task IdleTunnel_ClosedAfterTunnelIdleTimeout(string mode)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync(SwitchingProtocols);
            await connection.Reader.ReadToEndAsync();
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "timeouts.tunnelIdleMs=200");
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(WebSocketRequest);
        Assert.Equal(101, (await client.ReadResponseAsync()).StatusCode);

        await client.AssertClosedByPeerAsync();
        await origin.ConnectionsEndedAsync();
    }

    /// <summary>A client that half-closed and an origin that stays silent: the idle timeout still ends both sides, and the gauges come back down.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ClientHalfClosed_SilentOrigin_IdleTimeoutEndsBothSides(string mode)
    {
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var originSawEnd = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync(SwitchingProtocols);
            await ReadToEndIgnoringResetAsync(connection);
            originSawEnd.TrySetResult();
            await release.Task;
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "timeouts.tunnelIdleMs=200");
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(WebSocketRequest);
        Assert.Equal(101, (await client.ReadResponseAsync()).StatusCode);
        client.ShutdownSend();

        await originSawEnd.Task.WaitAsync(Deadline.Io);
        await client.AssertClosedByPeerAsync();
        await metrics.WaitForSumAsync("llrp.tunnels", 1);
        await metrics.WaitForSumAsync("llrp.tunnels.active", 0);
        await metrics.WaitForSumAsync("llrp.client.active_connections", 0);
        if (LlrpModes.IsRaw(mode))
        {
            await metrics.WaitForSumAsync("llrp.upstream.active_connections", 0);
        }

        release.SetResult();
    }

    /// <summary>An upgrade request waits for its response head no longer than any other (yarp mode too, whose activity timeout for it outlasts the tunnel idle timeout).</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task UpgradeNotAnswered_504AfterResponseHeadersTimeout(string mode)
    {
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await release.Task;
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "timeouts.responseHeadersMs=300");
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(WebSocketRequest);

        Assert.Equal(504, (await client.ReadResponseAsync()).StatusCode);
        release.SetResult();
    }

    // RFC 9110 §7.8: a server may ignore Upgrade; the answer is then an ordinary response, and the connection goes on.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task NotSwitched_ConnectionStaysHttp_PipelinedRequestAnsweredAfter(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(request => request.Target == "/chat"
            ? "HTTP/1.1 426 Upgrade Required\r\nContent-Length: 4\r\n\r\nnope"
            : ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(WebSocketRequest + "GET /next HTTP/1.1\r\nHost: client.test\r\n\r\n");

        var refused = await client.ReadResponseAsync();
        Assert.Equal(426, refused.StatusCode);
        Assert.Equal("nope", refused.BodyText);
        var next = await client.ReadResponseAsync();
        Assert.Equal("ok", next.BodyText);
        Assert.Equal(["/chat", "/next"], origin.Requests.Select(request => request.Target));
    }

    // RFC 9110 §15.2.2: a 101 switches to a protocol the client asked for; h2c never, as it would bypass the proxy's parsing.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task H2cUpgrade_NeverTunnelled_FieldsDropped_And101Refused(string mode)
    {
        await using var origin = ScriptedOrigin.Respond("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET / HTTP/1.1\r\nHost: client.test\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
            + "HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n");

        Assert.Equal(502, (await client.ReadResponseAsync()).StatusCode);
        var forwarded = origin.SingleRequest().Head;
        Assert.False(forwarded.Contains("Upgrade"), forwarded.Raw);
        Assert.False(forwarded.Contains("HTTP2-Settings"), forwarded.Raw);
        Assert.DoesNotContain("upgrade", forwarded.Tokens("Connection"), StringComparer.OrdinalIgnoreCase);
    }

    // RFC 9110 §7.8: a server must not switch to a protocol the client did not ask for, even one the proxy tunnels.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task SwitchToAListedProtocolNotAskedFor_Refused(string mode)
    {
        await using var origin = ScriptedOrigin.Respond("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: example\r\n\r\n");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "upgrade.protocols=websocket,example");
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(WebSocketRequest);

        Assert.Equal(502, (await client.ReadResponseAsync()).StatusCode);
    }

    // RFC 9110 §7.8: the request's content is read before the switch; the proxy tunnels only upgrades without one.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task UpgradeWithBody_ForwardedAsOrdinaryRequest(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("POST / HTTP/1.1\r\nHost: client.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nContent-Length: 5\r\n\r\nhello");

        Assert.Equal("ok", (await client.ReadResponseAsync()).BodyText);
        var forwarded = origin.SingleRequest();
        Assert.False(forwarded.Head.Contains("Upgrade"), forwarded.Head.Raw);
        Assert.Equal("hello", forwarded.BodyText);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ProtocolNotListed_UpgradeDropped(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET / HTTP/1.1\r\nHost: client.test\r\nConnection: Upgrade\r\nUpgrade: websocket, example/2\r\n\r\n");

        Assert.Equal("ok", (await client.ReadResponseAsync()).BodyText);
        Assert.False(origin.SingleRequest().Head.Contains("Upgrade"), origin.SingleRequest().Head.Raw);
    }

    [Theory]
    [MemberData(nameof(ModesTunnellingAnyProtocol))]
    public async Task ProtocolListedInOption_Tunnelled(string mode)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync("HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: example/2\r\n\r\nhi");
            await connection.Reader.ReadToEndAsync();
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "upgrade.protocols=example,websocket");
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET / HTTP/1.1\r\nHost: client.test\r\nConnection: Upgrade\r\nUpgrade: example/2\r\n\r\n");

        var response = await client.ReadResponseAsync();
        Assert.Equal(101, response.StatusCode);
        Assert.Equal("example/2", response.Head.Get("Upgrade"));
        Assert.Equal("hi", Encoding.Latin1.GetString(await client.ReadExactlyAsync(2)));
        Assert.Equal("example/2", origin.SingleRequest().Head.Get("Upgrade"));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task UpgradesDisabled_WebSocketRequestForwardedWithoutUpgrade(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "upgrade.protocols=none");
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(WebSocketRequest);

        Assert.Equal("ok", (await client.ReadResponseAsync()).BodyText);
        Assert.False(origin.SingleRequest().Head.Contains("Upgrade"), origin.SingleRequest().Head.Raw);
    }

    private static async Task<string> ReadToEndOrResetAsync(RawHttpClient client)
    {
        try
        {
            return Encoding.Latin1.GetString(await client.ReadToEndAsync());
        }
        catch (IOException)
        {
            return string.Empty;
        }
    }

    /// <summary>Reads what the proxy sends the origin up to its end, a close or a reset.</summary>
    internal static async Task ReadToEndIgnoringResetAsync(OriginConnection connection)
    {
        try
        {
            await connection.Reader.ReadToEndAsync();
        }
        catch (IOException)
        {
            // A reset is an end too.
        }
    }

    private static async Task SendIgnoringResetAsync(OriginConnection connection, string text)
    {
        try
        {
            await connection.SendAsync(text);
        }
        catch (IOException)
        {
            // In the modes that cannot half-close, the proxy closed the connection with the client's end.
        }
    }
}
