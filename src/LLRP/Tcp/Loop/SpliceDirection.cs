using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using LLRP.Tcp.Splice;
using LLRP.Transport.Epoll;

namespace LLRP.Tcp.Loop;

/// <summary>
/// One direction of a <see cref="LoopRelay"/>, moved on the loop's thread when epoll says its source is readable or its
/// destination writable. Each readiness starts with one receive into the loop's buffer of <see cref="CopySize"/> bytes,
/// sent on at once: a short receive means the source is drained (TCP returns what it has), so a small message costs one
/// receive and one send, as HAProxy's does, where a splice would cost three calls (in, out, and the would-block read that
/// edge-triggered readiness requires). A full buffer means more is coming: the rest goes source → pipe → destination with
/// <c>splice(2)</c>, never copied through the process, until the source would block; but a transfer whose burst turns
/// long (<see cref="LongBurst"/>) is copied from then on, <see cref="BulkReceiveSize"/> at a time. When the
/// destination is full the bytes wait (copied ones in an array rented for them, spliced ones in the pipe) for its output
/// readiness, and the loop stops reporting the source's readiness until they have gone and the source was read dry
/// again. The source's end of stream is passed on as a shutdown of the destination's sending side. A pipe is taken from
/// the pool only while bytes are in flight, so an idle direction holds no pipe and no buffer. A direction is also what
/// the loop reports its source's readiness to (the relay is told which side it is).
/// The direction from the client bounds what the upstream connection's socket holds unsent once its bulk begins
/// (<see cref="UpstreamUnsentLimit"/>), and splices through a wide pipe (<see cref="SplicePipe.WideCapacity"/>): the
/// socket takes its bytes in steps of about that bound, and the pipe holds what the client sent meanwhile, taken in one
/// splice where a pipe of 64 KiB took many; the relay's CPU per GiB uploaded fell by 14–37% in three same runs
/// (docs/benchmarks.md, "TCP 1 GiB: a wide pipe for the upload"); the bound is raised to a long upload's receive once it
/// is copied. The direction to the client splices 64 KiB at a time.
/// </summary>
internal sealed unsafe class SpliceDirection : IReadinessHandler
{
    /// <summary>
    /// The receive that decides between a copy and a splice: a request or a response of a few KiB is copied whole, a bulk
    /// transfer moves its first 16 KiB by copy and the rest by splice, until it turns long.
    /// </summary>
    private const int CopySize = 16 * 1024;

    /// <summary>
    /// The receive once a transfer is long (<see cref="LongBurst"/>), and then the upload's bound of unsent bytes. Against
    /// 64 KiB (the upload then bounded at 64 KiB), 4 rounds each way: a 1 GiB upload at 0.48–0.86 relay CPU s against
    /// 0.87–0.97, a download at 0.46–0.53 against 0.57–0.70, both at about direct's speed. 512 KiB and 1 MiB cut the
    /// upload's CPU a little more (0.34–0.48 against 0.45–0.62) but moved it at 0.95–1.01× direct against 0.97–1.02×
    /// (docs/benchmarks.md, "TCP 1 GiB upload: copied once long").
    /// </summary>
    private const int BulkReceiveSize = 256 * 1024;

    /// <summary>
    /// The bytes a burst (read since the source was last read dry) splices before the direction's transfer counts as long
    /// and is copied from then on. Copied from its first byte, a 1 GiB download (nearly all of it in bursts of megabytes)
    /// moved at 1.02–1.11× direct's speed where spliced it moved at 0.82–0.88×, at the same relay CPU per GiB, but
    /// responses of 100 KB (each a burst of its own) cost the relay 1.03–1.19× the CPU per request that they cost spliced.
    /// Copied past this mark: the download at 0.96–1.03× direct, the 100 KB responses at 0.96–1.02× the spliced CPU
    /// (docs/benchmarks.md, "TCP 1 GiB download: copied, not spliced"). A spliced 1 GiB upload moved at 0.75–0.89× direct,
    /// the core that ran the client and the origin working 0.1–0.9 s more per GiB behind it; copied past this mark, at
    /// about direct's speed and at 0.46–0.71× HAProxy's CPU seconds (docs/benchmarks.md, "TCP 1 GiB upload: copied once
    /// long").
    /// </summary>
    private const long LongBurst = 256 * 1024;

    /// <summary>Moves in a row before the rest waits for the loop's next iteration: a source that never runs dry does not hold the loop.</summary>
    private const int MovesPerTurn = 16;

    private const uint Flags = LinuxCalls.SpliceMove | LinuxCalls.SpliceNonblock;

    /// <summary>
    /// <c>TCP_NOTSENT_LOWAT</c> of the upstream connection's socket, set when bytes from the client turn bulk: the socket
    /// takes no more while it holds this much unsent, so the destination's acknowledgements find little left to transmit
    /// and the relay's own splices and sends send the rest, on the relay's CPU. Unbounded, a spliced upload filled the
    /// socket with megabytes that the acknowledgements then sent, and with them the destination's receive work, from the
    /// destination's CPU (docs/benchmarks.md, "TCP 1 GiB upload: the upstream socket's unsent bytes"); a copied one,
    /// unbounded once long, moved at 0.76–0.99× direct against 0.94–1.07× bounded, and its bound is then raised to
    /// <see cref="BulkReceiveSize"/>: a bound of half the receive cost 1.0–2.5× the relay's CPU. A direction to the client
    /// keeps the default: bounded there, the download gained nothing and its CPU doubled.
    /// </summary>
    private const int UpstreamUnsentLimit = 64 * 1024;

    /// <summary>
    /// Where <see cref="t_start"/> begins in <see cref="t_buffer"/>: a page boundary. Into the array's own start (aligned
    /// to 8 bytes only) the kernel's copy of a receive took 30% of the relay's samples in a copied download, against 12% for
    /// nginx's buffer (<c>_copy_to_iter</c>, <c>perf record</c>), and a GiB copied cost the relay 0.81–1.06 CPU s; from a
    /// page boundary 0.67–0.74, nginx 0.68–0.75 in the same rounds (docs/benchmarks.md, "TCP 1 GiB: what nginx's stream
    /// module does"). Small messages, the first receive of every burst, a long transfer and the relay of a direction that
    /// found no pipe are copied through it.
    /// </summary>
    private const int Alignment = 4096;

    /// <summary>The array that holds the loop thread's receive buffer, pinned, so <see cref="t_start"/> stays valid.</summary>
    [ThreadStatic]
    private static byte[]? t_buffer;

    /// <summary>The loop thread's receive buffer of <see cref="BulkReceiveSize"/> bytes, shared by every direction on it (a direction keeps nothing in it between calls).</summary>
    [ThreadStatic]
    private static byte* t_start;

    private readonly LoopRelay _relay;
    private SpliceDirectionState _state;
    private SplicePipe? _pipe;

    /// <summary>The most a splice into <see cref="_pipe"/> moves, set when the pipe is taken.</summary>
    private int _spliceLength;

    /// <param name="fromClient">Whether the source is the client's socket.</param>
    public SpliceDirection(LoopRelay relay, bool fromClient)
    {
        _relay = relay;
        FromClient = fromClient;
    }

    public bool FromClient { get; }

    /// <summary>A resumption of this direction is posted to the loop and has not run yet: the relay is not given back before it has.</summary>
    public bool ResumePosted { get; private set; }

    /// <summary>Whether bytes wait for the destination's room: the source's readiness is left until they have gone.</summary>
    public bool WaitsForDestination => _state.WaitsForDestination;

    /// <summary>
    /// Set when epoll reported the source's end of stream, a reset or an error with its readiness: it is read until it
    /// says so, where a short receive would otherwise end the turn (no later edge would come for it).
    /// </summary>
    public bool SourceClosing
    {
        get => _state.SourceClosing;
        set => _state.SourceClosing = value;
    }

    /// <summary>
    /// Set when epoll reported the source's FIN with no error: a short receive then took every byte before it (the FIN is
    /// taken in order, after them), and those bytes are sent corked (<c>MSG_MORE</c>), so that the FIN the next receive
    /// finds leaves with them in one segment when it is passed on (its shutdown or close pushes the corked bytes).
    /// </summary>
    public bool SourceFinished
    {
        get => _state.SourceFinished;
        set => _state.SourceFinished = value;
    }

    /// <summary>The source's end of stream was passed on.</summary>
    public bool Ended => _state.Ended;

    private int SourceFd => FromClient ? _relay.ClientFd : _relay.UpstreamFd;

    private SplicePipePool Pipes => _relay.Connections.Services.Pipes;

    private int DestinationFd => FromClient ? _relay.UpstreamFd : _relay.ClientFd;

    public void OnReady(uint events) => _relay.OnReady(FromClient, events);

    /// <summary>Nothing is sent through the loop's flushes: the splices send as they go.</summary>
    public void Flush()
    {
    }

    public void Fail(Exception error) => _relay.Abort();

    public void Pump()
    {
        for (var turn = 0; turn < MovesPerTurn; turn++)
        {
            if (_state.Unsent is not null || _state.Pending > 0)
            {
                if (!SendWaiting())
                {
                    return;
                }

                continue;
            }

            if (Ended)
            {
                return;
            }

            if (!(_state.Bulk && !_state.CopiesBulk ? SpliceIn() : CopyOnce()))
            {
                return;
            }
        }

        // One resumption at a time: a readiness pumping meanwhile leaves the rest to it, where a second would double every
        // turn's calls from then on (and retry a full destination with no room reported).
        if (!ResumePosted)
        {
            ResumePosted = true;
            _relay.Loop.Post(static state => ((SpliceDirection)state!).Resume(), this);
        }
    }

    /// <summary>
    /// Epoll reported an error or a hang-up of the source while its bytes wait for the destination's room, where no receive
    /// would see it before the destination drains: the source's pending error (<c>SO_ERROR</c>), if any, ends the relay as a
    /// receive's would (a reset is passed on).
    /// </summary>
    public void TakeSourceError()
    {
        int error;
        var length = (uint)sizeof(int);
        if (LinuxCalls.GetSocketOption(SourceFd, LinuxCalls.SolSocket, LinuxCalls.SoError, &error, &length) < 0)
        {
            error = Marshal.GetLastPInvokeError();
        }

        if (error != 0)
        {
            _relay.Failed(error, FromClient, onSource: true);
        }
    }

    /// <summary>Gives the pipe back when the relay ends, pooled when empty, else closed (its bytes go nowhere), and the array of unsent bytes.</summary>
    public void Release()
    {
        if (_state.Unsent is { } unsent)
        {
            _state.Unsent = null;
            ArrayPool<byte>.Shared.Return(unsent);
        }

        if (_pipe is null)
        {
            return;
        }

        if (_state.Pending == 0)
        {
            Pipes.Return(_pipe);
        }
        else
        {
            _pipe.Close();
        }

        _pipe = null;
    }

    /// <summary>A connection begins: the direction's state made new in one assignment (the pipe was released when the relay's last connection ended).</summary>
    public void Begin() => _state = default;

    /// <summary>The rest of a turn that ran out of moves; a destination found full meanwhile resumes it with its output readiness instead.</summary>
    private void Resume()
    {
        ResumePosted = false;
        if (_relay.IsOver)
        {
            _relay.ReturnWhenUnused();
        }
        else if (!WaitsForDestination)
        {
            Pump();
        }
    }

    /// <summary>One receive into the loop's buffer, sent on.</summary>
    /// <returns>True when more is likely there (the buffer came back full: splices take over).</returns>
    private bool CopyOnce()
    {
        if (_pipe is not null)
        {
            // A transfer that turned long: its pipe, emptied, goes back.
            Pipes.Return(_pipe);
            _pipe = null;
        }

        var start = Buffer();
        var size = _state.CopiesBulk ? BulkReceiveSize : CopySize;
        var read = LinuxCalls.Receive(SourceFd, start, (nuint)size, 0);
        if (read <= 0)
        {
            SourceStopped(read, Marshal.GetLastPInvokeError());
            return false;
        }

        _state.Burst += read;

        // Corked, the next receive (after a FIN nothing else can come) finds the end, more bytes, or a reset, whose send,
        // shutdown, close or reset ends the cork before the loop sleeps again.
        var flags = SourceFinished && read < size ? LinuxCalls.MsgNosignal | LinuxCalls.MsgMore : LinuxCalls.MsgNosignal;
        var sent = LinuxCalls.Send(DestinationFd, start, (nuint)read, flags);
        if (sent < 0)
        {
            var error = Marshal.GetLastPInvokeError();
            if (error != LinuxCalls.EAgain)
            {
                _relay.Failed(error, FromClient, onSource: false);
                return false;
            }

            sent = 0;
        }

        _relay.Moved(FromClient, sent);
        if (sent < read)
        {
            // The destination is full: the rest waits for its room in an array rented for it, given back once sent. A long
            // upload, its destination bounded (UpstreamUnsentLimit), comes here with most receives (3,209 of 4,100 per GiB).
            var rest = (int)(read - sent);
            var unsent = ArrayPool<byte>.Shared.Rent(rest);
            new ReadOnlySpan<byte>(start + sent, rest).CopyTo(unsent);
            _state.Unsent = unsent;
            _state.UnsentOffset = 0;
            _state.UnsentLength = rest;
            WaitForDestination();
            return false;
        }

        // A short receive drained the source, unless its end of stream had come too, which only a receive of 0 says.
        _state.Bulk = read == size;
        if (_state.Bulk && FromClient && !_state.UnsentBounded)
        {
            _state.UnsentBounded = true;
            BoundUnsent(UpstreamUnsentLimit);
        }

        if (_state.Bulk || SourceClosing)
        {
            return true;
        }

        Drained();
        return false;
    }

    /// <summary>The loop thread's receive buffer, made on its first use.</summary>
    private static byte* Buffer()
    {
        if (t_buffer is null)
        {
            t_buffer = GC.AllocateArray<byte>(BulkReceiveSize + Alignment, pinned: true);
            var address = (nuint)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(t_buffer));
            t_start = (byte*)((address + Alignment - 1) & ~(nuint)(Alignment - 1));
        }

        return t_start;
    }

    /// <summary>
    /// Sets the upstream connection's bound of unsent bytes: <see cref="UpstreamUnsentLimit"/> when the upload turns bulk,
    /// <see cref="BulkReceiveSize"/> when it turns long; a relay of small messages never makes the call.
    /// </summary>
    private void BoundUnsent(int limit) =>
        LinuxCalls.SetSocketOption(DestinationFd, LinuxCalls.IpProtoTcp, LinuxCalls.TcpNotSentLowWater, &limit, sizeof(int));

    /// <summary>
    /// One splice from the source into the pipe, taken from the pool for it: up to <see cref="SplicePipe.WideCapacity"/>
    /// toward the upstream connection when the pipe is or can be widened, else up to <see cref="SplicePipe.Capacity"/>. A
    /// transfer whose burst passes <see cref="LongBurst"/> is copied from then on.
    /// </summary>
    /// <returns>True when bytes went into the pipe.</returns>
    private bool SpliceIn()
    {
        if (_pipe is null)
        {
            _pipe = Pipes.Rent();
            if (_pipe is null)
            {
                // Out of descriptors: the rest is copied, one receive at a time.
                _state.Bulk = false;
                return true;
            }

            // Once per pipe taken: a pipe that could not be widened is not asked again with every splice.
            _spliceLength = FromClient && _pipe.TryWiden() ? SplicePipe.WideCapacity : SplicePipe.Capacity;
        }

        var read = LinuxCalls.Splice(SourceFd, 0, _pipe.WriteEnd, 0, (nuint)_spliceLength, Flags);
        if (read > 0)
        {
            _state.Pending = read;
            _state.Burst += read;
            if (_state.Burst >= LongBurst)
            {
                _state.CopiesBulk = true;
                if (FromClient)
                {
                    BoundUnsent(BulkReceiveSize);
                }
            }

            return true;
        }

        var error = Marshal.GetLastPInvokeError();
        Pipes.Return(_pipe);
        _pipe = null;
        _state.Bulk = false;
        SourceStopped(read, error);
        return false;
    }

    /// <summary>A receive or splice from the source moved nothing: its end of stream, would block, or failed.</summary>
    private void SourceStopped(nint result, int error)
    {
        if (result == 0)
        {
            _state.Ended = true;
            _relay.SourceEnded(FromClient);
        }
        else if (error != LinuxCalls.EAgain)
        {
            _relay.Failed(error, FromClient, onSource: true);
        }
        else
        {
            Drained();
        }
    }

    /// <summary>The source was read dry: a new burst begins, and its next bytes are reported again (at once if some came since that read).</summary>
    private void Drained()
    {
        _state.Burst = 0;
        if (_state.SourceUnwatched)
        {
            _state.SourceUnwatched = false;
            _relay.WatchSource(FromClient, watch: true);
        }
    }

    /// <summary>
    /// The destination is full: the bytes wait for its room, and the loop stops reporting the source's bytes until the
    /// source is read dry again. Reported, each segment the source's peer sent meanwhile woke the loop for nothing, and
    /// the sender's core paid for each wake-up.
    /// </summary>
    private void WaitForDestination()
    {
        _state.WaitsForDestination = true;
        if (!_state.SourceUnwatched)
        {
            _state.SourceUnwatched = true;
            _relay.WatchSource(FromClient, watch: false);
        }
    }

    /// <returns>True when some went; false when the destination is full (<see cref="WaitsForDestination"/>) or failed.</returns>
    private bool SendWaiting()
    {
        nint sent;
        if (_state.Unsent is { } unsent)
        {
            fixed (byte* start = unsent)
            {
                sent = LinuxCalls.Send(DestinationFd, start + _state.UnsentOffset, (nuint)(_state.UnsentLength - _state.UnsentOffset), LinuxCalls.MsgNosignal);
            }

            if (sent > 0 && (_state.UnsentOffset += (int)sent) == _state.UnsentLength)
            {
                _state.Unsent = null;
                ArrayPool<byte>.Shared.Return(unsent);
            }
        }
        else
        {
            sent = LinuxCalls.Splice(_pipe!.ReadEnd, 0, DestinationFd, 0, (nuint)_state.Pending, Flags);
            if (sent > 0)
            {
                _state.Pending -= sent;
            }
        }

        if (sent >= 0)
        {
            _state.WaitsForDestination = false;
            _relay.Moved(FromClient, sent);
            return true;
        }

        var error = Marshal.GetLastPInvokeError();
        if (error == LinuxCalls.EAgain)
        {
            WaitForDestination();
        }
        else
        {
            _relay.Failed(error, FromClient, onSource: false);
        }

        return false;
    }
}
