using Microsoft.AspNetCore.Connections;

namespace LLRP.Proxy;

/// <summary>
/// Kestrel hands every accepted client connection here, and each gets a <see cref="ClientSession"/>; past
/// <c>limits.maxClientConnections</c> open connections, a new one is answered 503 and closed instead. A front end that
/// takes some connections itself (HTTP/2) counts them against the same limit, and in the same gauge: <see cref="TryEnter"/>
/// as the connection is accepted, <see cref="Leave"/> when it ends, <see cref="RunSessionAsync"/> for those it leaves to
/// the session.
/// </summary>
internal sealed class ProxyConnectionHandler(ClientSessionServices services) : ConnectionHandler
{
    private int _open;

    public override async Task OnConnectedAsync(ConnectionContext connection)
    {
        if (!TryEnter())
        {
            await RefuseAsync(connection);
            return;
        }

        try
        {
            await RunSessionAsync(connection);
        }
        finally
        {
            Leave();
        }
    }

    /// <summary>
    /// Counts a new connection, against the limit and in <c>llrp.client.active_connections</c>, whichever protocol it
    /// speaks; false (and not counted) when it is over the limit and must be refused (<see cref="RefuseAsync"/>).
    /// </summary>
    public bool TryEnter()
    {
        if (services.MaxClientConnections != 0 && Interlocked.Increment(ref _open) > services.MaxClientConnections)
        {
            Interlocked.Decrement(ref _open);
            return false;
        }

        services.Metrics.ClientConnectionOpened();
        return true;
    }

    /// <summary>A connection counted by <see cref="TryEnter"/> ended.</summary>
    public void Leave()
    {
        services.Metrics.ClientConnectionClosed();
        if (services.MaxClientConnections != 0)
        {
            Interlocked.Decrement(ref _open);
        }
    }

    /// <summary>Runs the HTTP/1.1 session of a counted connection.</summary>
    public Task RunSessionAsync(ConnectionContext connection) => new ClientSession(connection, services).RunAsync();

    /// <summary>Answers a connection over the limit with 503 and closes it, at once (before it sent anything).</summary>
    public Task RefuseAsync(ConnectionContext connection)
    {
        services.Metrics.ClientConnectionRejected();
        return ConnectionRefusal.AnswerAsync(connection, ErrorResponses.TooManyConnections);
    }
}
