using LLRP.ClientSide;
using LLRP.Upstream;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Proxy;

/// <summary>
/// Kestrel hands every accepted client connection here, and each gets a <see cref="ClientSession"/>; past
/// <c>limits.maxClientConnections</c> open connections, a new one is answered 503 and closed instead.
/// </summary>
internal sealed class ProxyConnectionHandler(ClientSessionServices services) : ConnectionHandler
{
    /// <summary>How long a refused connection's input is read and dropped after the 503, so closing it does not reset the answer away.</summary>
    private static readonly TimeSpan RefusalLinger = TimeSpan.FromSeconds(2);

    private int _open;

    public override Task OnConnectedAsync(ConnectionContext connection)
    {
        if (services.MaxClientConnections == 0)
        {
            return new ClientSession(connection, services).RunAsync();
        }

        if (Interlocked.Increment(ref _open) > services.MaxClientConnections)
        {
            Interlocked.Decrement(ref _open);
            return RefuseAsync(connection);
        }

        return RunCountedAsync(connection);
    }

    private async Task RunCountedAsync(ConnectionContext connection)
    {
        try
        {
            await new ClientSession(connection, services).RunAsync();
        }
        finally
        {
            Interlocked.Decrement(ref _open);
        }
    }

    /// <summary>
    /// Writes the 503 and ends the output, then reads what the client sent until it closes or <see cref="RefusalLinger"/>
    /// passes: closing a socket with unread input sends a reset, which may destroy the 503 before the client reads it.
    /// </summary>
    private async Task RefuseAsync(ConnectionContext connection)
    {
        services.Metrics.ClientConnectionRejected();
        try
        {
            await connection.Transport.Output.WriteAsync(ErrorResponses.TooManyConnections);
            await connection.Transport.Output.CompleteAsync();
            using var linger = new CancellationTokenSource(RefusalLinger);
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
