using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Threading.Tasks.Sources;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.ProxyProtocol;
using LLRP.Routing;
using LLRP.Routing.Destinations;
using LLRP.Transport.Epoll;

namespace LLRP.Tcp.Loop;

/// <summary>
/// One client connection of a TCP route, its whole life on the relay loop whose listener accepted it, with its upstream
/// connection: both sides' state in this one object and its two directions (<see cref="SpliceDirection"/>), the sockets
/// held as bare descriptors. It takes the route's steps (<see cref="TcpRouteConnections"/>):
/// 1. the route's limit, then, when the route accepts the PROXY protocol, its header: only from a trusted network, peeked
///    at until whole (edge-triggered readiness reports each arrival) and then exactly its bytes consumed, so what follows
///    stays in the socket for the relay; refused when invalid, cut, or not whole within the route's timeout;
/// 2. a destination (<see cref="RelayRouting"/>), connected without blocking on this loop within the route's connect timeout
///    and sent the cluster's PROXY protocol header; a destination named by host is resolved off the loop, and a
///    destination's queue may complete elsewhere: the connect itself is always begun and ended on this loop;
/// 3. the relay both ways, as <see cref="TcpRelay"/> relays: a FIN passed on as a shutdown of the other's sending side,
///    a reset passed on as a reset (also while that side's bytes wait for the other's room: epoll's error says so), no
///    byte either way for the idle timeout closes both;
/// 4. its end counted and logged. The loop's stop, and the end of a graceful stop, end it as aborted at any step.
/// The timeouts are the loop's tick (<see cref="RelayLoop"/>). Everything runs on the loop's thread, but the connect's
/// start when a destination's queue or the resolver completed elsewhere (posted to the loop).
/// A relay that has ended, once nothing posted or pending refers to it any more (its routing has ended, no direction has a
/// resumption posted), goes back to its loop (<see cref="RelayLoop.Rent"/>), which takes it again, directions and callbacks
/// with it, for a later connection: a connection allocates nothing of its own. What belongs to one connection lives in
/// <see cref="RelayConnectionState"/> and each direction's <see cref="SpliceDirectionState"/>, each made new in one
/// assignment when a connection begins, so nothing of a connection shows on the next.
/// </summary>
internal sealed class LoopRelay : IValueTaskSource<(LoopRelay? Connection, ForwarderError Error)>
{
    private readonly RelayLoop _home;
    private readonly SpliceDirection _toUpstream;
    private readonly SpliceDirection _toClient;
    private readonly Func<Destination, ValueTask<(LoopRelay? Connection, ForwarderError Error)>> _connect;
    private readonly Action _routingEnded;
    private RelayConnectionState _state;
    private ManualResetValueTaskSourceCore<(LoopRelay? Connection, ForwarderError Error)> _connected;
    private ValueTask<RelayTarget<LoopRelay>> _routing;

    /// <summary>The routing was begun and <see cref="Routed"/> has not run yet: it may still call back into this relay.</summary>
    private bool _routingPending;

    /// <summary>Given back to its loop: set until the loop takes it again.</summary>
    private bool _returned;

    public LoopRelay(RelayLoop home)
    {
        _home = home;
        _toUpstream = new SpliceDirection(this, fromClient: true);
        _toClient = new SpliceDirection(this, fromClient: false);
        _connect = ConnectAsync;
        _routingEnded = RoutingEnded;
    }

    public TcpRouteConnections Connections => _state.Connections;

    public EventLoop Loop => _home.Loop;

    /// <summary>The relay loop this relay lives on.</summary>
    public RelayLoop Home => _home;

    public int ClientFd => _state.ClientFd;

    /// <summary>The upstream connection's descriptor; -1 until a connect begins.</summary>
    public int UpstreamFd => _state.UpstreamFd;

    /// <summary>Stops, or starts again, the loop's reports of bytes to read from the client's socket or the upstream one (<see cref="EventLoop.Rearm"/>).</summary>
    public void WatchSource(bool client, bool watch)
        => Loop.Rearm(client ? ClientFd : UpstreamFd, client ? _state.ClientSlot : _state.UpstreamSlot, input: watch);

    /// <summary>The relay has ended: nothing more moves.</summary>
    public bool IsOver => _state.Step == RelayStep.Over;

    /// <summary>The relay list of <see cref="RelayLoop"/>.</summary>
    public LoopRelay? Previous { get; set; }

    /// <inheritdoc cref="Previous"/>
    public LoopRelay? Next { get; set; }

    /// <summary>The slot of <see cref="RelayDeadlines"/> the relay waits in; -1 when in none.</summary>
    public int DeadlineSlot { get; set; } = -1;

    /// <summary>The list of the relay's slot of <see cref="RelayDeadlines"/>.</summary>
    public LoopRelay? PreviousDue { get; set; }

    /// <inheritdoc cref="PreviousDue"/>
    public LoopRelay? NextDue { get; set; }

    /// <summary>When the step's timeout, or the relay's idle one, ends it (<see cref="Environment.TickCount64"/>); <see cref="long.MaxValue"/> for never.</summary>
    public long Deadline => _state.Step switch
    {
        RelayStep.ProxyHeader or RelayStep.Connecting => _state.Deadline,
        RelayStep.Relaying => _state.LastActivity + (long)_state.Route.Options.IdleTimeout.TotalMilliseconds,
        _ => long.MaxValue,
    };

    /// <summary>Takes a connection through its route's steps; on the loop's thread, just accepted, the relay new or given back (its connection's state and its directions' made new).</summary>
    /// <param name="connections">The route's connections.</param>
    /// <param name="client">The accepted socket's descriptor, non-blocking; the relay closes it.</param>
    /// <param name="address">The client's address as <c>accept4</c> wrote it: read only when the route uses it (<see cref="TcpRouteConnections.UsesClientAddress"/>).</param>
    public unsafe void Begin(TcpRouteConnections connections, int client, byte* address)
    {
        _returned = false;
        var route = connections.Route();
        _state = new RelayConnectionState(connections, route, client, Stopwatch.GetTimestamp());
        _state.Client = connections.UsesClientAddress(route) ? SocketAddresses.Read(address) : null;
        _toUpstream.Begin();
        _toClient.Begin();
        if (!Connections.TryEnter(_state.Route, _state.Client, _state.Start))
        {
            LinuxCalls.Close(ClientFd);
            _state.Step = RelayStep.Over;
            ReturnWhenUnused();
            return;
        }

        _home.Add(this);
        _state.ClientSlot = Loop.Register(ClientFd, _toUpstream);
        if (!_state.Route.Options.AcceptProxyProtocol)
        {
            Route();
            return;
        }

        if (!ProxyHeaderReader.Trusted(_state.Client, _state.Route.Options.TrustedNetworks))
        {
            RefuseHeader(ProxyHeaderReader.Untrusted);
            return;
        }

        // Its first bytes, if any came with the connection, are reported by the registration's first readiness.
        _state.Step = RelayStep.ProxyHeader;
        _state.Deadline = Environment.TickCount64 + (long)_state.Route.Options.ProxyProtocolTimeout.TotalMilliseconds;
        _home.Schedule(this);
    }

    /// <summary>The loop's tick: the step's timeout, or the relay's idle one.</summary>
    public void OnTick(long now)
    {
        switch (_state.Step)
        {
            case RelayStep.ProxyHeader when now >= _state.Deadline:
                RefuseHeader(ProxyHeaderReader.TimedOut(_state.Route.Options.ProxyProtocolTimeout));
                break;
            case RelayStep.Connecting when now >= _state.Deadline:
                ConnectEnded(SocketError.TimedOut);
                break;
            case RelayStep.Relaying when now - _state.LastActivity >= (long)_state.Route.Options.IdleTimeout.TotalMilliseconds:
                Stop(TcpRelayEnd.IdleTimeout);
                break;
        }
    }

    /// <summary>epoll reported <paramref name="events"/> for the client's socket or the upstream one.</summary>
    public void OnReady(bool client, uint events)
    {
        switch (_state.Step)
        {
            case RelayStep.Relaying:
                Relay(client, events);
                break;
            case RelayStep.ProxyHeader when client:
                ReadHeader(events);
                break;
            case RelayStep.Connecting when !client && (events & (LinuxCalls.EpollOut | LinuxCalls.EpollErr | LinuxCalls.EpollHup)) != 0:
                _state.UpstreamEvents = events;
                ConnectEnded(UpstreamError(events));
                break;
            case RelayStep.Routing or RelayStep.Connecting when client:
                _state.ClientEvents |= events;
                break;
        }
    }

    public void Moved(bool fromClient, nint bytes)
    {
        if (fromClient)
        {
            _state.FromClient += bytes;
        }
        else
        {
            _state.ToClient += bytes;
        }

        _state.LastActivity = Environment.TickCount64;
    }

    /// <summary>
    /// A direction's source ended: the other side's sending side is shut down, and the relay is done once both are. The
    /// second end needs no shutdown: both sockets are closed then, and a close with nothing left unread sends the FIN.
    /// </summary>
    public void SourceEnded(bool fromClient)
    {
        if (_toUpstream.Ended && _toClient.Ended)
        {
            Finish(TcpRelayEnd.Closed, reset: -1);
            return;
        }

        LinuxCalls.Shutdown(fromClient ? UpstreamFd : ClientFd, LinuxCalls.ShutWrite);
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
            Finish(TcpRelayEnd.ClientReset, UpstreamFd);
        }
        else
        {
            Finish(TcpRelayEnd.UpstreamReset, ClientFd);
        }
    }

    /// <summary>Ends the relay for <paramref name="end"/> unless it has ended already: both sides closed with a FIN.</summary>
    public void Stop(TcpRelayEnd end) => Finish(end, reset: -1);

    /// <summary>The loop stops, or the proxy's graceful stop has run out of time: the connection ends as aborted, at whatever step.</summary>
    public void Abort() => Stop(TcpRelayEnd.Aborted);

    /// <summary>
    /// Gives the relay back to its loop once it has ended and nothing refers to it any more: its routing has ended and no
    /// direction has a resumption posted. Each of those, when it ends later, calls this again. The caller's frames may still
    /// read the ended relay: the loop resets it only when it takes it again, from its listener's readiness, where no
    /// relay's frame runs.
    /// </summary>
    public void ReturnWhenUnused()
    {
        if (!IsOver || _returned || _routingPending || _toUpstream.ResumePosted || _toClient.ResumePosted)
        {
            return;
        }

        _returned = true;
        _home.Return(this);
    }

    public (LoopRelay? Connection, ForwarderError Error) GetResult(short token) => _connected.GetResult(token);

    public ValueTaskSourceStatus GetStatus(short token) => _connected.GetStatus(token);

    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _connected.OnCompleted(continuation, state, token, flags);

    private void Relay(bool client, uint events)
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
            reading.SourceFinished |= (events & (LinuxCalls.EpollRdHup | LinuxCalls.EpollErr)) == LinuxCalls.EpollRdHup;
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

    /// <summary>Peeks at the header's bytes so far: whole, it is consumed (and nothing after it); else refused, or more awaited.</summary>
    private unsafe void ReadHeader(uint events)
    {
        var bytes = stackalloc byte[ProxyHeaderParser.MaxLength];
        var peeked = LinuxCalls.Receive(ClientFd, bytes, ProxyHeaderParser.MaxLength, LinuxCalls.MsgPeek);
        if (peeked < 0 && Marshal.GetLastPInvokeError() == LinuxCalls.EAgain)
        {
            return;
        }

        var received = new ReadOnlySpan<byte>(bytes, (int)Math.Max(peeked, 0));
        var status = ProxyHeaderParser.TryParse(received, out var header, out var error);
        if (status == ProxyHeaderStatus.Parsed)
        {
            LinuxCalls.Receive(ClientFd, bytes, (nuint)header.Length, 0);

            // What came after the header, and an end seen with it, are the relay's first readiness.
            _state.ClientEvents = (events & (LinuxCalls.EpollRdHup | LinuxCalls.EpollErr | LinuxCalls.EpollHup)) | (peeked > header.Length ? LinuxCalls.EpollIn : 0);
            _state.Received = header;
            if (header.Source is { } source)
            {
                (_state.Client, _state.Local) = (source, header.Destination);
            }

            Route();
            return;
        }

        var ended = peeked <= 0 || (events & (LinuxCalls.EpollRdHup | LinuxCalls.EpollErr | LinuxCalls.EpollHup)) != 0;
        if (ProxyHeaderReader.Refusal(status, error, ended, received.Length) is { } refusal)
        {
            RefuseHeader(refusal);
        }
    }

    private void RefuseHeader((string Refused, string Detail) refusal)
    {
        Connections.HeaderRefused(_state.Route, _state.Client, refusal.Refused, refusal.Detail, _state.Start);
        Discard();
    }

    private void Route()
    {
        _state.Step = RelayStep.Routing;
        var version = _state.Route.Cluster.Options.ProxyProtocol;
        if (version != ProxyProtocolVersion.None)
        {
            _state.Header = ProxyHeaderWriter.HeaderOf(version, _state.Client, _state.Local ?? LocalAddress(), _state.Received.Alpn, _state.Received.Authority);
        }

        _routingPending = true;
        _routing = RelayRouting.ConnectAsync(_state.Route.Cluster, _connect, Connections.Services.Routing);
        if (_routing.IsCompleted)
        {
            RoutingEnded();
        }
        else
        {
            // A continuation of the relay's own, where an async method would box its state for every connection.
            _routing.GetAwaiter().UnsafeOnCompleted(_routingEnded);
        }
    }

    /// <summary>The routing's result, read once (which gives its pooled box back); on the loop's thread, or wherever a destination's queue ended the wait.</summary>
    private void RoutingEnded()
    {
        var routing = _routing;
        _routing = default;
        _state.Destination = routing.GetAwaiter().GetResult().Destination;
        if (Loop.IsCurrent)
        {
            Routed();
        }
        else
        {
            // A destination's queue ended the wait elsewhere (its timeout, or it was full).
            Loop.Post(static state => ((LoopRelay)state!).Routed(), this);
        }
    }

    /// <summary>The destination's connect, begun on the loop; its value task completes on the loop's thread, which goes on inline.</summary>
    private ValueTask<(LoopRelay? Connection, ForwarderError Error)> ConnectAsync(Destination destination)
    {
        _connected.Reset();
        var task = new ValueTask<(LoopRelay? Connection, ForwarderError Error)>(this, _connected.Version);
        _state.Destination = destination;
        if (destination.Endpoint.EndPoint is IPEndPoint address)
        {
            _state.Connecting = address;
            if (Loop.IsCurrent)
            {
                BeginConnect();
            }
            else
            {
                Loop.Post(static state => ((LoopRelay)state!).BeginConnect(), this);
            }
        }
        else
        {
            _ = ResolveAsync((DnsEndPoint)destination.Endpoint.EndPoint);
        }

        return task;
    }

    /// <summary>The rare destination named by host: resolved off the loop, its first address connected to on it.</summary>
    private async Task ResolveAsync(DnsEndPoint name)
    {
        try
        {
            var addresses = await Dns.GetHostAddressesAsync(name.Host, name.AddressFamily);
            _state.Connecting = addresses.Length > 0 ? new IPEndPoint(addresses[0], name.Port) : null;
        }
        catch (SocketException)
        {
            _state.Connecting = null;
        }

        Loop.Post(static state => ((LoopRelay)state!).BeginConnect(), this);
    }

    private unsafe void BeginConnect()
    {
        if (IsOver || _state.Connecting is not { } address)
        {
            ConnectEnded(IsOver ? SocketError.OperationAborted : SocketError.HostNotFound);
            return;
        }

        var fd = LinuxCalls.Socket(address.AddressFamily == AddressFamily.InterNetwork ? LinuxCalls.AfInet : LinuxCalls.AfInet6, LinuxCalls.SockStream | LinuxCalls.SockNonblock | LinuxCalls.SockCloexec, 0);
        if (fd < 0)
        {
            ConnectEnded((SocketError)Marshal.GetLastPInvokeError());
            return;
        }

        _state.UpstreamFd = fd;
        NoDelay(fd);
        var socketAddress = stackalloc byte[LinuxCalls.SocketAddressSize];
        var length = SocketAddresses.Write(address, socketAddress);
        if (LinuxCalls.Connect(fd, socketAddress, length) < 0 && Marshal.GetLastPInvokeError() is var error && error != LinuxCalls.EInProgress)
        {
            ConnectEnded(ErrorOf(error));
            return;
        }

        // The registration's first output readiness says how the connect ended.
        _state.Step = RelayStep.Connecting;
        _state.Deadline = Environment.TickCount64 + (long)_state.Route.Options.ConnectTimeout.TotalMilliseconds;
        _home.Schedule(this);
        _state.UpstreamSlot = Loop.Register(fd, _toClient);
    }

    /// <summary>
    /// The connect's error: none when epoll reported output readiness alone, else the socket's (<c>SO_ERROR</c>); or the
    /// send of the cluster's PROXY protocol header failing.
    /// </summary>
    private unsafe SocketError UpstreamError(uint events)
    {
        var error = 0;
        var length = (uint)sizeof(int);
        if ((events & (LinuxCalls.EpollErr | LinuxCalls.EpollHup)) != 0
            && LinuxCalls.GetSocketOption(UpstreamFd, LinuxCalls.SolSocket, LinuxCalls.SoError, &error, &length) < 0)
        {
            error = Marshal.GetLastPInvokeError();
        }

        if ((events & (LinuxCalls.EpollErr | LinuxCalls.EpollHup)) != 0 && error == 0)
        {
            // A hang-up with no error pending: the connection is gone all the same.
            error = LinuxCalls.EConnReset;
        }

        if (error != 0 || _state.Header.Length == 0)
        {
            return ErrorOf(error);
        }

        // A fresh connection's send buffer takes the header (at most a few hundred bytes) whole, or the connect failed.
        fixed (byte* header = _state.Header)
        {
            var sent = LinuxCalls.Send(UpstreamFd, header, (nuint)_state.Header.Length, LinuxCalls.MsgNosignal);
            return sent == _state.Header.Length ? SocketError.Success
                : sent < 0 ? ErrorOf(Marshal.GetLastPInvokeError())
                : SocketError.NoBufferSpaceAvailable;
        }
    }

    /// <summary>The connect ended: connected, or the upstream socket closed and the failure logged; the routing goes on inline.</summary>
    private void ConnectEnded(SocketError error)
    {
        if (error == SocketError.Success && !IsOver)
        {
            _connected.SetResult((this, ForwarderError.None));
            return;
        }

        CloseUpstream();
        if (!IsOver)
        {
            _state.Step = RelayStep.Routing;
        }

        var failure = error switch
        {
            SocketError.OperationAborted => ForwarderError.ClientAborted,
            SocketError.TimedOut => ForwarderError.ConnectTimeout,
            _ => ForwarderError.ConnectFailed,
        };
        if (failure != ForwarderError.ClientAborted)
        {
            Connections.Services.Routing.FailureLog.ForwardingFailed(_state.Destination!.Name, failure, new SocketException((int)error));
        }

        _connected.SetResult((null, failure));
    }

    /// <summary>The routing ended, on the loop: relayed, or closed with no upstream connection.</summary>
    private void Routed()
    {
        _routingPending = false;
        if (IsOver)
        {
            // Aborted meanwhile: the routing saw its connect fail, and let the destination's slot go.
            ReturnWhenUnused();
            return;
        }

        if (_state.Step != RelayStep.Connecting)
        {
            Connections.NoUpstream(_state.Route, _state.Client, _state.Destination, _state.Start, _state.Received);
            Discard();
            return;
        }

        _state.Step = RelayStep.Relaying;
        _state.Header = [];
        _state.LastActivity = Environment.TickCount64;
        _home.Schedule(this);

        // Only a socket that reported something meanwhile is read now: a socket with nothing to read costs no call.
        var (client, upstream) = (_state.ClientEvents, _state.UpstreamEvents);
        (_state.ClientEvents, _state.UpstreamEvents) = (0, 0);
        if (client != 0)
        {
            Relay(client: true, client);
        }

        if (!IsOver && (upstream & ~LinuxCalls.EpollOut) != 0)
        {
            Relay(client: false, upstream);
        }
    }

    /// <param name="reset">The descriptor to reset (SO_LINGER 0, then close) when a reset is passed on; -1 to close both with a FIN.</param>
    private void Finish(TcpRelayEnd end, int reset)
    {
        if (IsOver)
        {
            return;
        }

        var step = _state.Step;
        _state.Step = RelayStep.Over;
        _state.End = end;
        _toUpstream.Release();
        _toClient.Release();
        if (reset >= 0)
        {
            Linger(reset);
        }
        else if (end != TcpRelayEnd.Closed)
        {
            // Closed: the first end's shutdown was passed on, and the close sends the second's FIN.
            LinuxCalls.Shutdown(ClientFd, LinuxCalls.ShutBoth);
            LinuxCalls.Shutdown(UpstreamFd, LinuxCalls.ShutBoth);
        }

        CloseUpstream();
        CloseClient();
        var relayed = step == RelayStep.Relaying;
        Connections.Ended(_state.Route, _state.Client, relayed ? _state.Destination : null, _state.End, _state.FromClient, _state.ToClient, _state.Start, _state.Received);
        Connections.Exit();
        if (step == RelayStep.Connecting)
        {
            // The routing waits for this connect: it ends now, and finds the relay over.
            _connected.SetResult((null, ForwarderError.ClientAborted));
        }

        ReturnWhenUnused();
    }

    /// <summary>Closes the client's connection unrelayed (its end counted and logged by the caller).</summary>
    private void Discard()
    {
        _state.Step = RelayStep.Over;
        CloseClient();
        Connections.Exit();
        ReturnWhenUnused();
    }

    private void CloseClient()
    {
        Loop.Unregister(_state.ClientSlot);
        _home.Remove(this);
        LinuxCalls.Close(ClientFd);
    }

    private void CloseUpstream()
    {
        if (UpstreamFd < 0)
        {
            return;
        }

        if (_state.UpstreamSlot >= 0)
        {
            Loop.Unregister(_state.UpstreamSlot);
            _state.UpstreamSlot = -1;
        }

        LinuxCalls.Close(UpstreamFd);
        _state.UpstreamFd = -1;
    }

    private unsafe IPEndPoint? LocalAddress()
    {
        var address = stackalloc byte[LinuxCalls.SocketAddressSize];
        var length = (uint)LinuxCalls.SocketAddressSize;
        return LinuxCalls.GetSocketName(ClientFd, address, &length) == 0 ? SocketAddresses.Read(address) : null;
    }

    private static unsafe void NoDelay(int fd)
    {
        var on = 1;
        LinuxCalls.SetSocketOption(fd, LinuxCalls.IpProtoTcp, LinuxCalls.TcpNoDelay, &on, sizeof(int));
    }

    private static unsafe void Linger(int fd)
    {
        var linger = stackalloc int[2] { 1, 0 };
        LinuxCalls.SetSocketOption(fd, LinuxCalls.SolSocket, LinuxCalls.SoLinger, linger, 2 * sizeof(int));
    }

    private static SocketError ErrorOf(int errno) => errno == 0 ? SocketError.Success : new SocketException(errno).SocketErrorCode;
}
