using System.Net;
using System.Net.Sockets;
using LLRP.Transport.Epoll;

namespace LLRP.Tcp.Loop;

/// <summary>
/// An upstream connection opened on an <see cref="EventLoop"/>: a non-blocking connect registered with the loop, whose
/// first output readiness says how it ended (<c>SO_ERROR</c>), then the cluster's PROXY protocol header sent. Once
/// connected, the socket stays registered and its slot is handed to the relay (<see cref="EventLoop.Hand"/>); until then its
/// events are dropped, and the relay looks at both sockets when it starts. A connect still pending when the loop stops
/// ends aborted (<see cref="EventLoop.Stopped"/>).
/// </summary>
internal sealed class LoopUpstream : IReadinessHandler
{
    private readonly EndPoint _endPoint;
    private readonly ReadOnlyMemory<byte> _header;
    /// <summary>Completed on the loop's thread, which runs what awaits it (the relay's creation and start) at once: no thread-pool hop.</summary>
    private readonly TaskCompletionSource<SocketError> _done = new();
    private readonly CancellationTokenRegistration _stop;
    private bool _finished;

    public LoopUpstream(EventLoop loop, IPEndPoint endPoint, ReadOnlyMemory<byte> header)
    {
        Loop = loop;
        _endPoint = endPoint;
        _header = header;
        Socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, Blocking = false };

        // A loop that stops before the connect has ended never runs what was posted for it: it ends here, aborted.
        _stop = loop.Stopped.UnsafeRegister(static state => ((LoopUpstream)state!).Finish(SocketError.OperationAborted), this);
    }

    public EventLoop Loop { get; }

    public Socket Socket { get; }

    /// <summary>The socket's registration with <see cref="Loop"/>; -1 until registered.</summary>
    public int Slot { get; private set; } = -1;

    /// <summary>Success once connected and the header sent, else why not; completes on the loop's thread.</summary>
    public Task<SocketError> Connected => _done.Task;

    /// <summary>Starts the connect; on the loop's thread.</summary>
    public void Begin()
    {
        try
        {
            Socket.Connect(_endPoint);
        }
        catch (SocketException e) when (e.SocketErrorCode is SocketError.WouldBlock or SocketError.InProgress)
        {
            // The usual outcome of a non-blocking connect: the first output readiness says how it ended.
        }
        catch (SocketException e)
        {
            Finish(e.SocketErrorCode);
            return;
        }

        Slot = Loop.Register((int)Socket.SafeHandle.DangerousGetHandle(), this);
    }

    /// <summary>The connect timeout passed: the connect is abandoned unless it has ended; on the loop's thread.</summary>
    public void Cancel() => Finish(SocketError.TimedOut);

    public void OnReady(uint events)
    {
        if (_finished || (events & (LinuxCalls.EpollOut | LinuxCalls.EpollErr | LinuxCalls.EpollHup)) == 0)
        {
            return;
        }

        var error = (SocketError)(int)Socket.GetSocketOption(SocketOptionLevel.Socket, SocketOptionName.Error)!;
        if (error == SocketError.Success && !_header.IsEmpty)
        {
            // A fresh connection's send buffer takes the header (at most a few hundred bytes) whole, or the connect failed.
            var sent = Socket.Send(_header.Span, SocketFlags.None, out error);
            if (error == SocketError.Success && sent != _header.Length)
            {
                error = SocketError.NoBufferSpaceAvailable;
            }
        }

        Finish(error);
    }

    /// <summary>Nothing is sent through the loop's flushes.</summary>
    public void Flush()
    {
    }

    public void Fail(Exception error) => Finish(SocketError.OperationAborted);

    private void Finish(SocketError error)
    {
        if (_finished)
        {
            return;
        }

        _finished = true;
        _stop.Unregister();
        if (error != SocketError.Success)
        {
            if (Slot >= 0)
            {
                Loop.Unregister(Slot);
            }

            Socket.Dispose();
        }

        _done.TrySetResult(error);
    }
}
