using LLRP.ClientSide;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Proxy;

/// <summary>A connection answered once by the proxy itself and then closed, without a session: over its limit, or speaking the wrong protocol.</summary>
internal static class ConnectionRefusal
{
    /// <summary>How long the client may take to read the answer before the connection closes.</summary>
    private static readonly TimeSpan Linger = TimeSpan.FromSeconds(2);

    /// <summary>
    /// Writes <paramref name="response"/> and ends the output, then reads what the client sent until it closes or
    /// <see cref="Linger"/> passes: closing a socket with unread input sends a reset, which may destroy the answer before
    /// the client reads it.
    /// </summary>
    public static async Task AnswerAsync(ConnectionContext connection, ReadOnlyMemory<byte> response)
    {
        try
        {
            await connection.Transport.Output.WriteAsync(response);
            await connection.Transport.Output.CompleteAsync();
            using var linger = new CancellationTokenSource(Linger);
            while (true)
            {
                var read = await connection.Transport.Input.ReadAsync(linger.Token);
                connection.Transport.Input.AdvanceTo(read.Buffer.End);
                if (read.IsCompleted)
                {
                    break;
                }
            }
        }
        catch (Exception e) when (e is OperationCanceledException || ClientResponseWriter.IsConnectionFailure(e))
        {
            // The client went away, or lingered too long: the connection ends either way.
        }
    }
}
