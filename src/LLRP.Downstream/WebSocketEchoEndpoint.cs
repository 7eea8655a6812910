using System.Buffers;
using System.Net.WebSockets;
using Microsoft.AspNetCore.Http;

namespace LLRP.Downstream;

/// <summary>
/// <c>/ws</c>: a WebSocket echo (RFC 6455). Every message comes back as it was received, frame by frame with the same
/// type and end-of-message flag; a close from the client is answered with the same status and description. A request
/// that is not a WebSocket handshake gets 426 Upgrade Required with <c>Upgrade: websocket</c> (RFC 9110 §15.5.22).
/// With <c>?hold=1</c> the origin reads nothing after the handshake and never answers, for idle-timeout tests; with
/// <c>?abort=1</c> it aborts the connection when a second message arrives, the first one echoed.
/// </summary>
internal static class WebSocketEchoEndpoint
{
    private const int BufferSize = 16 * 1024;

    public static async Task HandleAsync(HttpContext context)
    {
        if (!context.WebSockets.IsWebSocketRequest)
        {
            context.Response.StatusCode = StatusCodes.Status426UpgradeRequired;
            context.Response.Headers.Upgrade = "websocket";
            context.Response.Headers.Connection = "Upgrade";
            context.Response.ContentLength = 0;
            return;
        }

        var query = context.Request.Query;
        using var socket = await context.WebSockets.AcceptWebSocketAsync();
        if (query.ContainsKey("hold"))
        {
            await WaitForAbortAsync(context.RequestAborted);
            return;
        }

        var buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
        try
        {
            await EchoAsync(socket, buffer, abortOnSecond: query.ContainsKey("abort"), context);
        }
        catch (WebSocketException)
        {
            // The client went away without a close handshake; there is nobody left to answer.
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private static async Task EchoAsync(WebSocket socket, byte[] buffer, bool abortOnSecond, HttpContext context)
    {
        var messages = 0;
        while (true)
        {
            var received = await socket.ReceiveAsync(buffer, context.RequestAborted);
            if (received.MessageType == WebSocketMessageType.Close)
            {
                await socket.CloseOutputAsync(received.CloseStatus ?? WebSocketCloseStatus.Empty, received.CloseStatusDescription, context.RequestAborted);
                return;
            }

            if (abortOnSecond && messages == 1)
            {
                context.Abort();
                return;
            }

            await socket.SendAsync(buffer.AsMemory(0, received.Count), received.MessageType, received.EndOfMessage, context.RequestAborted);
            messages += received.EndOfMessage ? 1 : 0;
        }
    }

    private static async Task WaitForAbortAsync(CancellationToken aborted)
    {
        try
        {
            await Task.Delay(Timeout.Infinite, aborted);
        }
        catch (OperationCanceledException)
        {
            // The connection closed: the hold is over.
        }
    }
}
