using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Transport.Epoll;

/// <summary>
/// The receive side: on <c>EPOLLIN</c> it reads into the input pipe's 64 KiB block until a short read (drained: the
/// edge-triggered registration reports the next arrival); after a full read it asks <c>FIONREAD</c> instead of trying a
/// receive that would fail. When epoll reported the peer's end (<c>EPOLLRDHUP</c>), which comes as one edge with the last
/// data, it receives on to the end of the stream. Nothing is rented before the socket is readable, and a pipe whose reader consumed everything
/// gives its block back: an idle connection holds none. While the reader is more than 1 MiB behind, receiving pauses, and
/// the loop does not report the socket's input meanwhile (each segment that came would wake it for nothing).
/// A reader that keeps up inline (the HTTP/2 server's read loop) never pauses it, so a client that always has more to
/// send would keep the loop receiving: after <see cref="MaxReceivesPerTurn"/> full receives the connection gives the loop
/// back and receives on in the loop's next iteration, after the work posted meanwhile (its own answers' flush among
/// them) and the other connections' events.
/// </summary>
internal sealed partial class EpollConnection
{
    /// <summary>Made at the first pause of the input.</summary>
    private Action? _onInputResumed;
    private ValueTaskAwaiter<FlushResult> _inputFlush;
    private bool _inputEnded;
    private bool _inputPaused;
    private bool _readableWhilePaused;

    /// <summary>Full receives (1 MiB) one turn of the loop makes for a connection before it lets the loop's other work run.</summary>
    private const int MaxReceivesPerTurn = 16;

    /// <summary>epoll reported the peer's end (or an error): after a short read, the next receive returns it.</summary>
    private bool _peerEnded;

    private unsafe void Receive()
    {
        if (_isClosed || _inputEnded)
        {
            return;
        }

        if (_inputPaused)
        {
            _readableWhilePaused = true;
            return;
        }

        var writer = _input.Writer;
        for (var turn = 1; ; turn++)
        {
            // The pool's blocks are pinned already: fixing the span costs nothing more than taking its address.
            var span = writer.GetSpan(PinnedBlockPool.LargeSize);
            nint received;
            fixed (byte* bytes = span)
            {
                received = LinuxCalls.Receive(_fd, bytes, (nuint)span.Length, 0);
            }

            if (received <= 0)
            {
                EndReceive(received);
                return;
            }

            writer.Advance((int)received);
            var flush = writer.FlushAsync();
            if (_isClosed)
            {
                return;
            }

            var full = received == span.Length;
            if (!flush.IsCompleted)
            {
                _inputPaused = true;
                _readableWhilePaused = full;
                _loop.Rearm(_fd, _slot, input: false);
                _inputFlush = flush.GetAwaiter();
                _inputFlush.UnsafeOnCompleted(_onInputResumed ??= () => _loop.Run(static state => ((EpollConnection)state!).ResumeInput(), this));
                return;
            }

            if (flush.Result.IsCompleted)
            {
                // The reader is done: what else arrives is not read.
                _inputEnded = true;
                return;
            }

            // A short read drained the socket, unless the peer's end came with the data: one more receive returns it (0).
            if (!_peerEnded && (!full || !HasBytes()))
            {
                return;
            }

            if (turn == MaxReceivesPerTurn)
            {
                // The socket stays readable with no new edge to report it: the loop is asked to come back.
                _loop.Post(static state => ((EpollConnection)state!).Receive(), this);
                return;
            }
        }
    }

    /// <summary>
/// A receive returned 0 (the peer ended its side), or failed: EAGAIN leaves it waiting for the next edge; a reset reaches
/// the reader after the bytes that arrived before it.
/// </summary>
    private void EndReceive(nint received)
    {
        Exception? error = null;
        if (received < 0)
        {
            var errno = Marshal.GetLastPInvokeError();
            if (errno is LinuxCalls.EAgain or LinuxCalls.EIntr)
            {
                return;
            }

            error = errno == LinuxCalls.EConnReset
                ? new ConnectionResetException($"The peer reset the connection (errno {errno}).")
                : new ConnectionAbortedException($"Receive failed (errno {errno}).");
        }

        _inputEnded = true;
        if (_abortReason is null && error is not null)
        {
            // The bytes received before the failure reach the reader first.
            _inputReader.FailAfterData(error);
            error = null;
        }

        _input.Writer.Complete(_abortReason ?? error);
    }

    /// <summary>Whether bytes wait in the socket after a receive that filled its buffer.</summary>
    private unsafe bool HasBytes()
    {
        int count;
        return LinuxCalls.BytesAvailable(_fd, LinuxCalls.FionRead, &count) != 0 || count > 0;
    }

    /// <summary>The reader caught up with a paused receive: on the loop's thread, receiving goes on if the socket had more.</summary>
    private void ResumeInput()
    {
        if (_isClosed || !_inputPaused)
        {
            return;
        }

        _inputPaused = false;
        if (_inputFlush.GetResult().IsCompleted)
        {
            _inputEnded = true;
            return;
        }

        if (_readableWhilePaused)
        {
            _readableWhilePaused = false;
            Receive();
        }

        // Bytes that came since the last receive are reported at once.
        if (!_isClosed && !_inputPaused && !_inputEnded)
        {
            _loop.Rearm(_fd, _slot, input: true);
        }
    }
}
