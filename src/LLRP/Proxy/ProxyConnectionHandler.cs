using Microsoft.AspNetCore.Connections;

namespace LLRP.Proxy;

/// <summary>
/// Kestrel hands every accepted client connection here, and each gets a <see cref="ClientSession"/>; past
/// <c>limits.maxClientConnections</c> open connections, a new one is answered 503 and closed instead.
/// </summary>
internal sealed class ProxyConnectionHandler(ClientSessionServices services) : ConnectionHandler
{
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

    private Task RefuseAsync(ConnectionContext connection)
    {
        services.Metrics.ClientConnectionRejected();
        return ConnectionRefusal.AnswerAsync(connection, ErrorResponses.TooManyConnections);
    }
}
