using System.Buffers;
using System.IO.Pipelines;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Transport.Epoll;

/// <summary>
/// The send side: a flush of the output pipe (<see cref="SendingPipeWriter"/>) schedules the connection with its loop, which at the end of its iteration
/// sends everything written meanwhile in one gathered <c>sendmsg</c> (up to <see cref="MaxVectors"/> blocks per call). What
/// the socket does not take waits for <c>EPOLLOUT</c>, the registration renewed (<c>EPOLL_CTL_MOD</c>) so that room that
/// came back before the flag was set is reported too. The output's end half-closes the socket.
/// </summary>
internal sealed partial class EpollConnection
{
    private const int MaxVectors = 64;

    private bool _outputEnded;
    private bool _waitingWritable;
    private int _sendRequested;

    /// <summary>
    /// Has the loop send what waits in the output at the end of its iteration; from any thread. A send requested already
    /// (several flushes in one iteration: HTTP/2 streams, a relayed body) is seen with a plain read, no locked exchange.
    /// </summary>
    public void RequestSend()
    {
        if (Volatile.Read(ref _sendRequested) == 0 && Interlocked.Exchange(ref _sendRequested, 1) == 0)
        {
            _loop.ScheduleFlush(this);
        }
    }

    /// <summary>Sends what waits in the output pipe, on the loop's thread.</summary>
    public void Flush()
    {
        // Cleared first: what is written from here on asks for another send.
        Volatile.Write(ref _sendRequested, 0);
        if (_isClosed || _outputEnded || _waitingWritable || _connecting is not null)
        {
            return;
        }

        var reader = _output.Reader;
        if (!reader.TryRead(out var result))
        {
            if (_disposeRequested)
            {
                Close();
            }

            return;
        }

        var buffer = result.Buffer;
        var sent = Send(buffer, out var errno);
        if (errno != 0)
        {
            reader.AdvanceTo(buffer.Start);
            EndOutput(failed: true, errno is LinuxCalls.EConnReset or LinuxCalls.EPipe ? null : new ConnectionAbortedException($"Send failed (errno {errno})."));
            return;
        }

        if (sent < buffer.Length)
        {
            // What was not sent is left unexamined, so that the next TryRead returns it even if nothing more is written.
            reader.AdvanceTo(buffer.GetPosition(sent));
            _waitingWritable = true;
            _loop.Rearm(_fd, _slot, input: !_inputPaused);
            return;
        }

        reader.AdvanceTo(buffer.End);
        if (result.IsCompleted)
        {
            _socket.Shutdown(SocketShutdown.Send);
            EndOutput(failed: false);
        }
        else if (_disposeRequested)
        {
            Close();
        }
    }

    /// <summary>Aborting: one send of what waits in the output, whatever the socket takes of it at once, then the close.</summary>
    private void SendFlushedAndClose()
    {
        if (!_isClosed && _slot >= 0 && _connecting is null && !_outputEnded && _output.Reader.TryRead(out var result))
        {
            Send(result.Buffer, out _);
            _output.Reader.AdvanceTo(result.Buffer.End);
        }

        Close();
    }

    /// <summary>
    /// The output ends; a failed send closes the connection. Its writer sees <paramref name="unexpected"/> if given; after
    /// a reset, a peer gone (<c>EPIPE</c>) or an abort, a flush that completes (<see cref="FlushResult.IsCompleted"/>), as
    /// over Kestrel's sockets transport: the reason reaches the input's reader. Kestrel's HTTP/2 server would take an
    /// exception from its frame writer's flush for a fault of its own and never complete its streams, whose requests (and
    /// upstream connections) would stay open.
    /// </summary>
    private void EndOutput(bool failed, Exception? unexpected = null)
    {
        _outputEnded = true;
        _output.Reader.Complete(unexpected);
        if (_disposeRequested || failed)
        {
            Close();
        }
    }

    /// <summary>Sends <paramref name="buffer"/> in gathered calls until it is sent or the socket is full; errno 0 unless it failed.</summary>
    private unsafe long Send(ReadOnlySequence<byte> buffer, out int errno)
    {
        errno = 0;
        long sent = 0;
        var vectors = stackalloc IoVector[MaxVectors];
        var handles = new MemoryHandles();
        var position = buffer.Start;
        while (sent < buffer.Length)
        {
            var count = 0;
            long batch = 0;
            while (count < MaxVectors && buffer.TryGet(ref position, out var segment))
            {
                if (segment.IsEmpty)
                {
                    continue;
                }

                var handle = segment.Pin();
                handles[count] = handle;
                vectors[count].Base = (byte*)handle.Pointer;
                vectors[count].Length = (nuint)segment.Length;
                batch += segment.Length;
                count++;
            }

            var message = new MessageHeader { Vectors = vectors, VectorCount = (nuint)count };
            nint result;
            do
            {
                result = LinuxCalls.SendMessage(_fd, &message, LinuxCalls.MsgNosignal);
            }
            while (result < 0 && Marshal.GetLastPInvokeError() == LinuxCalls.EIntr);

            for (var i = 0; i < count; i++)
            {
                handles[i].Dispose();
            }

            if (result < 0)
            {
                var error = Marshal.GetLastPInvokeError();
                errno = error == LinuxCalls.EAgain ? 0 : error;
                return sent;
            }

            sent += result;
            if (result < batch)
            {
                return sent;
            }
        }

        return sent;
    }

    /// <summary>
    /// The pins of one gathered send: free for the pool's own blocks, array-backed memory marked pinned (the address of
    /// the array, no handle); a <see cref="GCHandle"/> only for a segment the pipe took elsewhere (a write asking for more
    /// than a large block).
    /// </summary>
    [InlineArray(MaxVectors)]
    private struct MemoryHandles
    {
        private MemoryHandle _element;
    }
}
