using System.Buffers;
using System.IO.Pipelines;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using LLRP.Tcp.Splice;
using LLRP.Transport.Epoll;

namespace LLRP.Tcp;

/// <summary>
/// The spliced relay, one loop each way: wait until the source is readable (a zero-byte receive, no buffer), take a pipe,
/// splice source → pipe → destination while the pipe fills, give the pipe back. The bytes never enter the
/// process, and an idle relay holds no pipe and no buffer. When the destination cannot take more, the bytes stay in the
/// pipe until it has room (<see cref="WritableWaiter"/>), and the splices go on.
/// </summary>
internal sealed partial class TcpRelay
{
    /// <summary>Splices in a row before the loop lets the thread go: a source that never runs dry holds no thread for long.</summary>
    private const int SplicesPerTurn = 16;

    private readonly SplicePipePool _pipes;
    private readonly WritableWaiter? _writable;
    private readonly bool _spliced;

    /// <param name="fromClient">Whether <paramref name="from"/> is the client's socket.</param>
    /// <param name="read">Bytes read from <paramref name="from"/> before the relay (past a PROXY protocol header), forwarded first.</param>
    private async Task SpliceAsync(Socket from, Socket to, bool fromClient, PipeReader? read)
    {
        SplicePipe? pipe = null;
        var onSource = false;
        try
        {
            if (read is not null && read.TryRead(out var result))
            {
                foreach (var segment in result.Buffer)
                {
                    await to.SendAsync(segment, SocketFlags.None);
                }

                Moved(fromClient, result.Buffer.Length);
                read.AdvanceTo(result.Buffer.End);
                if (result.IsCompleted)
                {
                    to.Shutdown(SocketShutdown.Send);
                    return;
                }
            }

            while (true)
            {
                onSource = true;
                await from.ReceiveAsync(Memory<byte>.Empty, SocketFlags.None);
                pipe = _pipes.Rent();
                if (pipe is null)
                {
                    if (!await CopyOnceAsync(from, to, fromClient))
                    {
                        return;
                    }

                    continue;
                }

                for (var turn = 1; ; turn++)
                {
                    onSource = true;
                    var moved = Splice(from, pipe.WriteEnd, SplicePipe.Capacity, toSocket: false);
                    if (moved == 0)
                    {
                        _pipes.Return(pipe);
                        pipe = null;
                        onSource = false;
                        to.Shutdown(SocketShutdown.Send);
                        return;
                    }

                    if (moved < 0)
                    {
                        var error = Marshal.GetLastPInvokeError();
                        if (error != LinuxCalls.EAgain)
                        {
                            Failed(error, fromClient, onSource: true);
                            return;
                        }

                        break;
                    }

                    onSource = false;
                    for (var pending = moved; pending > 0;)
                    {
                        var sent = Splice(to, pipe.ReadEnd, pending, toSocket: true);
                        if (sent > 0)
                        {
                            pending -= sent;
                            continue;
                        }

                        var error = Marshal.GetLastPInvokeError();
                        if (error != LinuxCalls.EAgain)
                        {
                            Failed(error, fromClient, onSource: false);
                            return;
                        }

                        await _writable!.WaitAsync(to);
                    }

                    Moved(fromClient, moved);
                    if (moved < SplicePipe.Capacity)
                    {
                        // Less than a pipeful: the source was most likely drained, and the wait's receive finds out for
                        // one system call as a splice would.
                        break;
                    }

                    if (turn % SplicesPerTurn == 0)
                    {
                        await Task.Yield();
                    }
                }

                _pipes.Return(pipe);
                pipe = null;
            }
        }
        catch (SocketException e) when (IsReset(e))
        {
            Failed(LinuxCalls.EConnReset, fromClient, onSource);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Stopped from the other direction, the heartbeat or Kestrel's abort: the end is theirs to say.
            Stop(TcpRelayEnd.Aborted);
        }
        finally
        {
            if (pipe is not null)
            {
                // It may hold bytes nobody will read: closed, not pooled.
                pipe.Close();
            }
        }
    }

    /// <summary>
    /// One splice between <paramref name="socket"/> and a pipe end, the socket's descriptor held open for the call (a close
    /// from another thread waits, so its number is never another socket's).
    /// </summary>
    /// <param name="toSocket">Pipe → socket; else socket → pipe.</param>
    /// <returns>The bytes moved, 0 at the socket's end of stream, or -1 with the error in <see cref="Marshal.GetLastPInvokeError"/>.</returns>
    private static nint Splice(Socket socket, int pipeEnd, nint length, bool toSocket)
    {
        var handle = socket.SafeHandle;
        var added = false;
        try
        {
            handle.DangerousAddRef(ref added);
            var fd = (int)handle.DangerousGetHandle();
            const uint flags = LinuxCalls.SpliceMove | LinuxCalls.SpliceNonblock;
            return toSocket
                ? LinuxCalls.Splice(pipeEnd, 0, fd, 0, (nuint)length, flags)
                : LinuxCalls.Splice(fd, 0, pipeEnd, 0, (nuint)length, flags);
        }
        finally
        {
            if (added)
            {
                handle.DangerousRelease();
            }
        }
    }

    /// <summary>No pipe to be had (out of descriptors): one read and send through a pooled buffer instead.</summary>
    /// <returns>False at the source's end of stream, passed on.</returns>
    private async Task<bool> CopyOnceAsync(Socket from, Socket to, bool fromClient)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
        try
        {
            var read = await from.ReceiveAsync(buffer.AsMemory(0, BufferSize), SocketFlags.None);
            if (read == 0)
            {
                to.Shutdown(SocketShutdown.Send);
                return false;
            }

            await to.SendAsync(buffer.AsMemory(0, read), SocketFlags.None);
            Moved(fromClient, read);
            return true;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private void Moved(bool fromClient, long bytes)
    {
        Interlocked.Add(ref fromClient ? ref _fromClient : ref _toClient, bytes);
        Volatile.Write(ref _lastActivity, Environment.TickCount64);
    }

    /// <summary>
    /// A splice or send failed with <paramref name="error"/> on the source (<paramref name="onSource"/>) or the destination:
    /// a reset (or a broken pipe: the peer reset) is passed on to the other side, anything else stops the relay.
    /// </summary>
    private void Failed(int error, bool fromClient, bool onSource)
    {
        if (error is not (LinuxCalls.EConnReset or LinuxCalls.EPipe))
        {
            Stop(TcpRelayEnd.Aborted);
            return;
        }

        var clientSide = fromClient == onSource;
        if (clientSide)
        {
            Reset(TcpRelayEnd.ClientReset, _upstream);
        }
        else
        {
            Reset(TcpRelayEnd.UpstreamReset, _clientSocket);
        }
    }
}
