using System.Net.WebSockets;
using System.Security.Cryptography.X509Certificates;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary><see cref="ClientWebSocket"/> operations bounded by <see cref="Deadline.Io"/>, whole messages at a time.</summary>
public static class WebSocketClient
{
    /// <summary>Opens a WebSocket to <paramref name="uri"/> (<c>ws</c> or <c>wss</c>), trusting <paramref name="trusted"/> as the server's certificate when given.</summary>
    public static async Task<ClientWebSocket> ConnectAsync(Uri uri, X509Certificate2? trusted = null)
    {
        var socket = new ClientWebSocket();
        socket.Options.KeepAliveInterval = TimeSpan.Zero;
        if (trusted is not null)
        {
            socket.Options.RemoteCertificateValidationCallback = (_, certificate, _, _) =>
                certificate is not null && certificate.GetCertHashString() == trusted.GetCertHashString();
        }

        await Deadline.RunAsync(token => new ValueTask(socket.ConnectAsync(uri, token)), "The WebSocket handshake");
        return socket;
    }

    public static Task SendAsync(ClientWebSocket socket, byte[] payload, WebSocketMessageType type)
        => Deadline.RunAsync(token => socket.SendAsync(payload.AsMemory(), type, endOfMessage: true, token), "A WebSocket send");

    public static Task<(WebSocketMessageType Type, byte[] Payload)> ReceiveMessageAsync(ClientWebSocket socket)
        => Deadline.RunAsync(async token =>
        {
            using var message = new MemoryStream();
            var buffer = new byte[64 * 1024];
            while (true)
            {
                var received = await socket.ReceiveAsync(buffer.AsMemory(), token);
                message.Write(buffer, 0, received.Count);
                if (received.EndOfMessage)
                {
                    return (received.MessageType, message.ToArray());
                }
            }
        }, "A WebSocket message");
}
