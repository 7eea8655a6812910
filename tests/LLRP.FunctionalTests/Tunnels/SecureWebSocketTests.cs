using System.Net.WebSockets;
using System.Security.Cryptography;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Testing;

namespace LLRP.FunctionalTests.Tunnels;

/// <summary>WebSocket tunnels over TLS on either side of the proxy, in every mode: <c>wss</c> to the proxy, and a <c>wss</c> origin behind it.</summary>
public sealed class SecureWebSocketTests : IDisposable
{
    private readonly TestCertificate _certificate = TestCertificate.Create();

    public void Dispose() => _certificate.Dispose();

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task WssClient_PlainOrigin_Echoes(string mode)
    {
        await using var downstream = await TestHosts.StartDownstreamAsync();
        await using var proxy = await TestHosts.StartProxyAsync(downstream.Url, mode, TestHosts.HttpsListener(_certificate));

        await AssertEchoesAsync(new Uri($"wss://localhost:{proxy.Port}/ws"));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task WssClient_TlsOrigin_Echoes(string mode)
    {
        await using var downstream = await TestHosts.StartTlsDownstreamAsync(_certificate);
        await using var proxy = await TestHosts.StartProxyAsync(
            downstream.Url, mode, [.. TestHosts.HttpsListener(_certificate), "tls.downstreamInsecure=true"]);

        await AssertEchoesAsync(new Uri($"wss://localhost:{proxy.Port}/ws"));
    }

    private async Task AssertEchoesAsync(Uri uri)
    {
        using var socket = await WebSocketClient.ConnectAsync(uri, _certificate.Certificate);
        var message = RandomNumberGenerator.GetBytes(256 * 1024);

        await WebSocketClient.SendAsync(socket, message, WebSocketMessageType.Binary);
        var echoed = await WebSocketClient.ReceiveMessageAsync(socket);

        Assert.True(message.AsSpan().SequenceEqual(echoed.Payload), "The message came back altered.");
        await Deadline.RunAsync(token => new ValueTask(socket.CloseAsync(WebSocketCloseStatus.NormalClosure, "done", token)), "The close handshake");
        Assert.Equal(WebSocketCloseStatus.NormalClosure, socket.CloseStatus);
    }
}
