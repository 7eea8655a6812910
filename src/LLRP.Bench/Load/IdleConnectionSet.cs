using System.Buffers;
using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;

namespace LLRP.Bench.Load;

/// <summary>
/// Keep-alive client connections left idle: each connects, sends one <c>GET /?s=10</c>, reads the whole response and
/// stays open until the set is disposed, which resets them all (RST, so no TIME_WAIT is left on the runner's ports).
/// The set grows by <see cref="OpenAsync"/>, once or in steps. They are opened from the runner's own process, so on its
/// CPU (the load CPU when bench.sh pins it), at most <see cref="Parallelism"/> at a time, and each opening stops at a
/// deadline however the contender behaves.
/// </summary>
public sealed class IdleConnectionSet : IDisposable
{
    public const int Parallelism = 64;
    private const int ResponseLimit = 16 * 1024;

    private static readonly TimeSpan _perConnectionTimeout = TimeSpan.FromSeconds(10);
    private static readonly byte[] _request = "GET /?s=10 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"u8.ToArray();

    private readonly ConcurrentBag<Socket> _sockets = [];
    private readonly IPEndPoint _endPoint;
    private int _requested;
    private int _failed;
    private string? _firstError;
    private TimeSpan? _deadlineHit;

    /// <param name="port">The loopback port of the contender.</param>
    public IdleConnectionSet(int port)
    {
        _endPoint = new IPEndPoint(IPAddress.Loopback, port);
    }

    /// <summary>Connections that answered 200 and are held open.</summary>
    public int Count => _sockets.Count;

    /// <summary>Null while every connection asked for was opened; otherwise what went wrong.</summary>
    public string? Error
    {
        get
        {
            var stopped = _deadlineHit is { } deadline ? $"stopped at the {deadline.TotalSeconds:0} s deadline; " : null;
            return _failed > 0 ? $"{stopped}{_failed} connection(s) failed, the first: {_firstError}"
                : stopped is not null ? $"{stopped}{Count} of {_requested} open"
                : null;
        }
    }

    /// <summary>Opens <paramref name="count"/> more connections and adds those that answered to the set.</summary>
    /// <param name="count">How many connections to open.</param>
    /// <param name="deadline">When to stop opening, however many are open.</param>
    /// <param name="cancellationToken">Stops the run: the cancellation is thrown, the connections stay until the set is disposed.</param>
    public async Task OpenAsync(int count, TimeSpan deadline, CancellationToken cancellationToken)
    {
        _requested += count;
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(deadline);
        try
        {
            await Parallel.ForEachAsync(
                Enumerable.Range(0, count),
                new ParallelOptions { MaxDegreeOfParallelism = Parallelism, CancellationToken = timeout.Token },
                (_, token) => OpenOneAsync(_endPoint, token));
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            _deadlineHit = deadline;
        }
    }

    /// <summary>Resets every connection.</summary>
    public void Dispose()
    {
        while (_sockets.TryTake(out var socket))
        {
            Abort(socket);
        }
    }

    private static void Abort(Socket socket)
    {
        try
        {
            socket.LingerState = new LingerOption(true, 0);
        }
        catch (SocketException)
        {
            // Not connected: closing is all there is to do.
        }

        socket.Dispose();
    }

    private async ValueTask OpenOneAsync(IPEndPoint endPoint, CancellationToken cancellationToken)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        var buffer = ArrayPool<byte>.Shared.Rent(ResponseLimit);
        var kept = false;
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(_perConnectionTimeout);
        try
        {
            await socket.ConnectAsync(endPoint, timeout.Token);
            await socket.SendAsync(_request, SocketFlags.None, timeout.Token);
            var received = 0;
            int status;
            while (!ResponseFraming.IsComplete(buffer.AsSpan(0, received), out status))
            {
                var read = received < ResponseLimit
                    ? await socket.ReceiveAsync(buffer.AsMemory(received, ResponseLimit - received), SocketFlags.None, timeout.Token)
                    : throw new InvalidDataException($"no response end within {ResponseLimit} bytes");
                received += read > 0 ? read : throw new IOException("the connection closed before the response ended");
            }

            if (status != 200)
            {
                throw new InvalidDataException($"status {status}");
            }

            _sockets.Add(socket);
            kept = true;
        }
        catch (Exception e) when (e is SocketException or IOException or InvalidDataException
            || (e is OperationCanceledException && !cancellationToken.IsCancellationRequested))
        {
            Interlocked.Increment(ref _failed);
            Interlocked.CompareExchange(ref _firstError, e is OperationCanceledException ? $"no response within {_perConnectionTimeout.TotalSeconds:0} s" : e.Message, null);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
            if (!kept)
            {
                Abort(socket);
            }
        }
    }
}
