using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Transport.Epoll;

/// <summary>
/// The connect side, for connections the proxy opens: a non-blocking connect registered with the loop, whose first
/// readiness tells whether it succeeded (<c>SO_ERROR</c>).
/// </summary>
internal sealed partial class EpollConnection
{
    private TaskCompletionSource<EpollConnection>? _connecting;

    /// <summary>Connects to <paramref name="endPoint"/> on <paramref name="loop"/>; the task completes on the loop's thread.</summary>
    /// <exception cref="SocketException">Refused or unreachable.</exception>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled first.</exception>
    public static async Task<EpollConnection> ConnectAsync(EventLoop loop, EndPoint endPoint, PinnedBlockPool pool, CancellationToken cancellationToken)
    {
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, Blocking = false };
        var connecting = new TaskCompletionSource<EpollConnection>();
        var connection = new EpollConnection(loop, socket, pool) { _connecting = connecting, RemoteEndPoint = endPoint };

        // On the loop's thread this may end at once (a refused loopback connect); the task says how either way.
        loop.Run(static state => ((EpollConnection)state!).BeginConnect(), connection);
        await using var cancel = cancellationToken.UnsafeRegister(
            static state => ((EpollConnection)state!).Abort(new ConnectionAbortedException("The connect timed out.")),
            connection);
        try
        {
            return await connecting.Task;
        }
        catch (ConnectionAbortedException e) when (cancellationToken.IsCancellationRequested)
        {
            throw new OperationCanceledException(e.Message, e, cancellationToken);
        }
    }

    private void BeginConnect()
    {
        if (_isClosed)
        {
            return;
        }

        try
        {
            _socket.Connect(RemoteEndPoint!);
        }
        catch (SocketException e) when (e.SocketErrorCode is SocketError.WouldBlock or SocketError.InProgress)
        {
            // The usual outcome of a non-blocking connect: the first readiness says how it ended.
        }
        catch (SocketException e)
        {
            FailConnect(e);
            return;
        }

        _slot = _loop.Register(_fd, this);
    }

    private void CompleteConnect()
    {
        var error = (SocketError)(int)_socket.GetSocketOption(SocketOptionLevel.Socket, SocketOptionName.Error)!;
        if (error != SocketError.Success)
        {
            FailConnect(new SocketException((int)error));
            return;
        }

        LocalEndPoint = _socket.LocalEndPoint;
        var connecting = _connecting!;
        _connecting = null;
        RequestSend();
        connecting.TrySetResult(this);
    }

    private void FailConnect(SocketException error)
    {
        var connecting = _connecting!;
        _connecting = null;
        Close();
        connecting.TrySetException(error);
    }
}
