using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Tcp.Splice;

/// <summary>A TCP route's listening socket: each accepted socket becomes a <see cref="TcpRouteConnection"/>.</summary>
internal sealed class TcpRouteListener(Socket listenSocket) : IConnectionListener
{
    public EndPoint EndPoint { get; } = listenSocket.LocalEndPoint!;

    public async ValueTask<ConnectionContext?> AcceptAsync(CancellationToken cancellationToken = default)
    {
        while (true)
        {
            try
            {
                var accepted = await listenSocket.AcceptAsync(cancellationToken);
                accepted.NoDelay = true;
                return new TcpRouteConnection(accepted);
            }
            catch (ObjectDisposedException)
            {
                return null;
            }
            catch (SocketException e) when (e.SocketErrorCode == SocketError.OperationAborted)
            {
                return null;
            }
            catch (SocketException)
            {
                // A connection reset before it was accepted: the next one.
            }
        }
    }

    public ValueTask UnbindAsync(CancellationToken cancellationToken = default)
    {
        listenSocket.Dispose();
        return ValueTask.CompletedTask;
    }

    public ValueTask DisposeAsync()
    {
        listenSocket.Dispose();
        return ValueTask.CompletedTask;
    }
}
