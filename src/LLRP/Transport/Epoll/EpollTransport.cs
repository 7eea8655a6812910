using System.Net;
using System.Net.Sockets;

namespace LLRP.Transport.Epoll;

/// <summary>
/// The epoll transport: its event loops (one per core unless told) and its memory. Accepted connections go to the loops in
/// turn; a connection the proxy opens goes to the loop of the thread asking, so the upstream connection of a request read
/// on a loop is served by the same thread.
/// </summary>
internal sealed class EpollTransport : IDisposable
{
    private readonly EventLoop[] _loops;
    private int _next;

    public EpollTransport(int loopCount)
    {
        _loops = new EventLoop[loopCount];
        for (var i = 0; i < loopCount; i++)
        {
            _loops[i] = new EventLoop(i);
        }
    }

    public PinnedBlockPool Pool { get; } = new();

    public int LoopCount => _loops.Length;

    /// <summary>Serves an accepted socket on the next loop.</summary>
    public EpollConnection Adopt(Socket socket)
    {
        socket.Blocking = false;
        socket.NoDelay = true;
        var connection = new EpollConnection(NextLoop(), socket, Pool);
        connection.Start();
        return connection;
    }

    /// <summary>Connects to <paramref name="endPoint"/> on the calling thread's loop, or the next loop from any other thread.</summary>
    /// <exception cref="SocketException">Refused or unreachable.</exception>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled first.</exception>
    public Task<EpollConnection> ConnectAsync(EndPoint endPoint, CancellationToken cancellationToken)
        => EpollConnection.ConnectAsync(EventLoop.Current is { } current && Owns(current) ? current : NextLoop(), endPoint, Pool, cancellationToken);

    public void Dispose()
    {
        foreach (var loop in _loops)
        {
            loop.Dispose();
        }

        Pool.Dispose();
    }

    private bool Owns(EventLoop loop) => loop.Id < _loops.Length && _loops[loop.Id] == loop;

    private EventLoop NextLoop() => _loops[(int)((uint)Interlocked.Increment(ref _next) % (uint)_loops.Length)];
}
