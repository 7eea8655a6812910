using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Transport.Epoll;

/// <summary>
/// A listening socket whose accepted connections run on the epoll transport. Accepting stays with .NET's socket engine
/// (once per connection); each accepted socket is then the transport's alone.
/// </summary>
internal sealed class EpollConnectionListener(Socket listenSocket, EpollTransport transport) : IConnectionListener
{
    public EndPoint EndPoint { get; } = listenSocket.LocalEndPoint!;

    public async ValueTask<ConnectionContext?> AcceptAsync(CancellationToken cancellationToken = default)
    {
        while (true)
        {
            Socket accepted;
            try
            {
                accepted = await listenSocket.AcceptAsync(cancellationToken);
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
                continue;
            }

            return transport.Adopt(accepted);
        }
    }

    public ValueTask UnbindAsync(CancellationToken cancellationToken = default)
    {
        listenSocket.Dispose();
        return default;
    }

    public ValueTask DisposeAsync()
    {
        listenSocket.Dispose();
        return default;
    }
}
