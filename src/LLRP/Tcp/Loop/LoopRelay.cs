using System.Net.Sockets;
using LLRP.Tcp.Splice;
using LLRP.Transport.Epoll;

namespace LLRP.Tcp.Loop;

/// <summary>
/// Relays one client connection and its upstream connection both ways on one <see cref="EventLoop"/>, the loop the upstream
/// connection was opened on (<see cref="LoopUpstream"/>): both sockets registered edge-triggered, each direction spliced
/// inline when epoll reports it can move (<see cref="SpliceDirection"/>), with no thread pool between a readiness and its
/// splice. How it ends, as <see cref="TcpRelay"/> ends:
/// - a FIN from either side is passed on as a shutdown of the other's sending side; both done is <see cref="TcpRelayEnd.Closed"/>;
/// - a reset on either side (a splice's <c>ECONNRESET</c>, or <c>EPIPE</c> towards a peer that reset) resets the other
///   (SO_LINGER 0, then close), also while that side's bytes wait for the other's room (epoll's error on it says so);
/// - no byte either way for the idle timeout (the heartbeat of <see cref="TcpRelayTracker"/>, posted to the loop) closes
///   both with a FIN;
/// - Kestrel's abort of the client connection at the end of the shutdown timeout shuts its socket down (the relay holds the
///   descriptor, so its number is never another socket's meanwhile), which ends both directions;
/// - the loop's stop ends it as aborted, begun or not (<see cref="EventLoop.Stopped"/>).
/// Everything but <see cref="RunAsync"/> and <see cref="OnHeartbeat"/> runs on the loop's thread.
/// </summary>
internal sealed class LoopRelay : ITcpRelay
{
    private readonly Socket _client;
    private readonly Socket _upstream;
    private readonly int _upstreamSlot;
    private readonly long _idleMs;
    private readonly SpliceDirection _toUpstream;
    private readonly SpliceDirection _toClient;
    /// <summary>Completed on the loop's thread, which then runs the handler's end (count, log) and Kestrel's close of the connection at once.</summary>
    private readonly TaskCompletionSource _done = new();
    private readonly CancellationTokenRegistration _stop;
    private int _clientSlot = -1;
    private bool _clientHeld;
    private long _lastActivity = Environment.TickCount64;
    private TcpRelayEnd _end;
    private long _fromClient;
    private long _toClientBytes;

    /// <param name="upstream">Connected, its socket registered with its loop.</param>
    /// <param name="client">The client's socket, which nothing else reads.</param>
    /// <param name="head">Bytes read from the client before the relay, sent first; null for none.</param>
    public LoopRelay(LoopUpstream upstream, Socket client, byte[]? head, TimeSpan idleTimeout, SplicePipePool pipes)
    {
        Loop = upstream.Loop;
        _client = client;
        _upstream = upstream.Socket;
        _upstreamSlot = upstream.Slot;
        _idleMs = (long)idleTimeout.TotalMilliseconds;
        client.Blocking = false;
        var clientFd = (int)client.SafeHandle.DangerousGetHandle();
        _toUpstream = new SpliceDirection(this, clientFd, _upstream, fromClient: true, pipes, head);
        _toClient = new SpliceDirection(this, (int)_upstream.SafeHandle.DangerousGetHandle(), client, fromClient: false, pipes, null);

        // A loop that stops before the relay has begun never runs its start: it ends here, aborted.
        _stop = Loop.Stopped.UnsafeRegister(static state => ((LoopRelay)state!).Abort(), this);
    }

    public EventLoop Loop { get; }

    /// <summary>The relay has ended: nothing more moves.</summary>
    public bool IsOver { get; private set; }

    public TcpRelayEnd End => _end;

    public long FromClient => _fromClient;

    public long ToClient => _toClientBytes;

    public Task RunAsync()
    {
        Loop.Run(static state => ((LoopRelay)state!).Start(), this);
        return _done.Task;
    }

    public void OnHeartbeat(long now)
    {
        if (now - Volatile.Read(ref _lastActivity) >= _idleMs)
        {
            Loop.Post(static state => ((LoopRelay)state!).Stop(TcpRelayEnd.IdleTimeout), this);
        }
    }

    /// <summary>epoll reported <paramref name="events"/> for the client's socket or the upstream one.</summary>
    public void OnReady(bool client, uint events)
    {
        var (reading, writing) = client ? (_toUpstream, _toClient) : (_toClient, _toUpstream);
        const uint Failure = LinuxCalls.EpollErr | LinuxCalls.EpollHup;
        if ((events & (LinuxCalls.EpollOut | Failure)) != 0 && writing.WaitsForDestination)
        {
            writing.Pump();
        }

        if ((events & (LinuxCalls.EpollRdHup | Failure)) != 0)
        {
            reading.SourceClosing = true;
        }

        if (!IsOver && (events & (LinuxCalls.EpollIn | LinuxCalls.EpollRdHup | Failure)) != 0)
        {
            if (!reading.WaitsForDestination)
            {
                reading.Pump();
            }
            else if ((events & Failure) != 0)
            {
                reading.TakeSourceError();
            }
        }
    }

    public void Moved(bool fromClient, nint bytes)
    {
        if (fromClient)
        {
            _fromClient += bytes;
        }
        else
        {
            _toClientBytes += bytes;
        }

        Volatile.Write(ref _lastActivity, Environment.TickCount64);
    }

    /// <summary>A direction's source ended: <paramref name="destination"/>'s sending side is shut down, and the relay is done once both are.</summary>
    public void SourceEnded(Socket destination)
    {
        try
        {
            destination.Shutdown(SocketShutdown.Send);
        }
        catch (SocketException)
        {
            // Reset meanwhile: its own readiness says so.
        }

        if (_toUpstream.Ended && _toClient.Ended)
        {
            Finish(TcpRelayEnd.Closed, null);
        }
    }

    /// <summary>
    /// A splice or send failed with <paramref name="error"/> on the source (<paramref name="onSource"/>) or the destination
    /// of the direction from the client (<paramref name="fromClient"/>) or to it: a reset (or a broken pipe: the peer reset)
    /// is passed on to the other side, anything else stops the relay.
    /// </summary>
    public void Failed(int error, bool fromClient, bool onSource)
    {
        if (error is not (LinuxCalls.EConnReset or LinuxCalls.EPipe))
        {
            Stop(TcpRelayEnd.Aborted);
        }
        else if (fromClient == onSource)
        {
            Finish(TcpRelayEnd.ClientReset, _upstream);
        }
        else
        {
            Finish(TcpRelayEnd.UpstreamReset, _client);
        }
    }

    /// <summary>Ends the relay for <paramref name="end"/> unless it has ended already: both sides closed with a FIN.</summary>
    public void Stop(TcpRelayEnd end) => Finish(end, null);

    /// <summary>The loop stops: the relay ends as aborted.</summary>
    public void Abort() => Stop(TcpRelayEnd.Aborted);

    private void Start()
    {
        Loop.Hand(_upstreamSlot, new RelaySocket(this, client: false));
        try
        {
            var added = false;
            _client.SafeHandle.DangerousAddRef(ref added);
            _clientHeld = added;
            _clientSlot = Loop.Register((int)_client.SafeHandle.DangerousGetHandle(), new RelaySocket(this, client: true));
        }
        catch (Exception e) when (e is ObjectDisposedException or IOException)
        {
            // Aborted before the relay began.
            Stop(TcpRelayEnd.Aborted);
            return;
        }

        // Bytes that came before the registrations raised no event here: each direction looks once.
        _toUpstream.Drain();
        if (!IsOver)
        {
            _toClient.Drain();
        }
    }

    /// <param name="reset">The socket to reset (SO_LINGER 0 and close), when a reset is passed on; null to close both with a FIN.</param>
    private void Finish(TcpRelayEnd end, Socket? reset)
    {
        if (IsOver)
        {
            return;
        }

        IsOver = true;
        _end = end;
        _stop.Unregister();
        Loop.Unregister(_upstreamSlot);
        if (_clientSlot >= 0)
        {
            Loop.Unregister(_clientSlot);
        }

        _toUpstream.Release();
        _toClient.Release();
        if (_clientHeld)
        {
            _client.SafeHandle.DangerousRelease();
        }

        if (reset is null)
        {
            if (end != TcpRelayEnd.Closed)
            {
                // Closed: each side's sending side is shut down already.
                ShutDown(_client);
                ShutDown(_upstream);
            }
        }
        else
        {
            try
            {
                reset.LingerState = new LingerOption(true, 0);
            }
            catch (SocketException)
            {
                // Reset already: nothing is left to reset.
            }

            reset.Dispose();
        }

        _upstream.Dispose();
        _done.TrySetResult();
    }

    /// <summary>Shuts both sides of <paramref name="socket"/> down (a FIN unless sent already).</summary>
    private static void ShutDown(Socket socket)
    {
        try
        {
            socket.Shutdown(SocketShutdown.Both);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Reset or closed already.
        }
    }
}
