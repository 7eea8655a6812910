using System.Buffers;
using System.IO.Pipelines;
using LLRP.Http2.Codec;
using LLRP.Proxy;
using LLRP.Transport.Epoll;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Http2.Server;

/// <summary>
/// One HTTP/2 client connection on LLRP's own server (RFC 9113): one read loop parses every frame of each read and
/// applies it (this file: the loop, the stream table, the end; the frames in the other parts), then starts the request
/// streams that read opened (<see cref="Http2Stream"/>) on the thread pool, each with what of its body the read held.
/// Every frame leaves through the one <see cref="FrameOutput{TStream}"/>, flushed once per batch. The idle and header
/// deadlines and shutdown come from <see cref="ClientConnectionTracker"/>.
/// </summary>
internal sealed partial class Http2Connection : ITrackedConnection
{
    private static ReadOnlySpan<byte> Preface => ConnectionPreface.Bytes;

    private readonly ConnectionContext _connection;
    private readonly ClientConnectionTracker _tracker;
    private readonly PipeReader _input;
    private readonly FrameOutput<Http2Stream> _output;
    private readonly HpackDecoder _decoder;
    private readonly Dictionary<int, Http2Stream> _streams = [];
    private readonly Stack<Http2Stream> _pool = new();
    private readonly List<Http2Stream> _opened = [];
    private readonly RecentStreamIds _recentlyReset = new();
    private readonly ConnectionDeadline _deadline = new();
    private readonly long _started = Environment.TickCount64;
    private TaskCompletionSource? _streamsEnded;
    private bool _closed;
    private bool _stopping;
    private bool _goAwayReceived;
    private volatile bool _ending;

    public Http2Connection(ConnectionContext connection, Func<HttpContext, ValueTask> application, ServerLimits limits, ClientConnectionTracker tracker, bool tls)
    {
        _connection = connection;
        _tracker = tracker;
        Application = application;
        Limits = limits;
        IsTls = tls;
        _input = connection.Transport.Input;
        _output = new FrameOutput<Http2Stream>(connection.Transport.Output);
        RequestBodyPipeOptions = new PipeOptions(
            pool: connection.Features.Get<IMemoryPoolFeature>()?.MemoryPool ?? MemoryPool<byte>.Shared,
            pauseWriterThreshold: 0,
            readerScheduler: PipeScheduler.ThreadPool,
            writerScheduler: PipeScheduler.Inline,
            useSynchronizationContext: false);
        _decoder = new HpackDecoder(ServerLimits.HeaderTableSize, limits.MaxHeaderListSize);
        _receiveWindow = limits.InitialConnectionWindowSize;
        _resetCredit = limits.MaxResetCredit;
        ConnectionFeature = new ConnectionEndpoints(connection);
    }

    /// <summary>What answers each request stream: the <see cref="Http2FrontEnd"/> on a proxy listener.</summary>
    public Func<HttpContext, ValueTask> Application { get; }

    public ServerLimits Limits { get; }

    public bool IsTls { get; }

    public IHttpConnectionFeature ConnectionFeature { get; }

    /// <summary>
    /// The options of every stream's request body pipe: its memory comes from the transport's pool (the blocks its reads
    /// use), which any thread rents from and returns to. The runtime's shared array pool keeps a few arrays per core, and
    /// a read of many streams' DATA rents an array per stream on the socket thread that the streams give back later on
    /// the thread pool: it ran dry and allocated ~4 KiB per uploading stream. (The response data pipe stays on the
    /// array pool: measured, the transport's pool cost ~0.5% more of a GET's CPU there, and it is written and read on one thread.)
    /// </summary>
    public PipeOptions RequestBodyPipeOptions { get; }

    /// <summary>The client's SETTINGS_MAX_FRAME_SIZE (RFC 9113 §6.5.2). Under the output's lock.</summary>
    public int PeerMaxFrameSize { get; private set; } = Configuration.Http2Settings.MinFrameSize;

    public async Task RunAsync()
    {
        _tracker.Add(this);
        try
        {
            SendSettings();
            await ReadFramesAsync();
        }
        catch (Http2ConnectionException e)
        {
            GoAway(e.Code);
        }
        catch (HpackDecodingException)
        {
            GoAway(Http2ErrorCode.CompressionError);
        }
        catch (Exception e) when (e is IOException or ConnectionResetException or ConnectionAbortedException or OperationCanceledException)
        {
            // The client went away.
        }
        finally
        {
            await EndAsync();
            _tracker.Remove(this);
        }
    }

    private async Task ReadFramesAsync()
    {
        var prefaceRead = false;
        while (true)
        {
            WaitForClient();
            var result = await _input.ReadAsync();
            var buffer = result.Buffer;
            if (!_deadline.TakeBack())
            {
                // Idle past the keep-alive timeout, a head not finished within the request headers timeout, or stopping.
                GoAway(Http2ErrorCode.NoError);
                return;
            }

            try
            {
                if (!prefaceRead)
                {
                    if (buffer.Length < Preface.Length)
                    {
                        if (result.IsCompleted || !buffer.IsEmpty && !StartsLikePreface(buffer))
                        {
                            throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "Not the HTTP/2 connection preface (RFC 9113 §3.4)");
                        }

                        continue;
                    }

                    if (!StartsLikePreface(buffer))
                    {
                        throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "Not the HTTP/2 connection preface (RFC 9113 §3.4)");
                    }

                    buffer = buffer.Slice(Preface.Length);
                    prefaceRead = true;
                }

                while (FrameHeader.TryReadFrame(ref buffer, Limits.MaxFrameSize, out var header, out var payload))
                {
                    OnFrame(header, payload);
                }
            }
            finally
            {
                _input.AdvanceTo(buffer.Start, buffer.End);
                StartOpenedStreams();
            }

            if (result.IsCompleted || IsDrained())
            {
                return;
            }
        }
    }

    /// <summary>
    /// Starts the streams the last read opened, in order, once the read's frames are applied (a body that came in the same
    /// read is there when its stream starts), each on the thread pool; on an epoll event loop's thread
    /// (<c>transport=epoll</c>), a stream whose request is whole runs here until its first wait instead. Also when the read
    /// failed, since the connection's end waits for every stream in its table. On Kestrel's sockets transport, running a
    /// whole request here measured more CPU per request (the socket thread then runs the streams of a read one after
    /// another, each sending its own request upstream); on an event loop, the request's upstream connection is the loop's
    /// own, its send leaves with the others at the end of the loop's iteration and its response is read on the same
    /// thread, so no thread is woken for the stream at all.
    /// </summary>
    private void StartOpenedStreams()
    {
        var onLoop = EventLoop.Current is not null;
        foreach (var stream in _opened)
        {
            if (onLoop && IsWhole(stream))
            {
                ((IThreadPoolWorkItem)stream).Execute();
            }
            else
            {
                ThreadPool.UnsafeQueueUserWorkItem(stream, preferLocal: false);
            }
        }

        _opened.Clear();
    }

    private bool IsWhole(Http2Stream stream)
    {
        lock (_output.Sync)
        {
            return stream.RequestEnded;
        }
    }

    private static bool StartsLikePreface(in ReadOnlySequence<byte> buffer)
    {
        Span<byte> start = stackalloc byte[Preface.Length];
        var length = (int)Math.Min(buffer.Length, Preface.Length);
        buffer.Slice(0, length).CopyTo(start);
        return start[..length].SequenceEqual(Preface[..length]);
    }

    /// <summary>
    /// Sets what the read loop may wait for the client: a head being received or the client's first SETTINGS within the
    /// request headers timeout; with no stream open, the keep-alive timeout; else no limit.
    /// </summary>
    private void WaitForClient()
    {
        lock (_output.Sync)
        {
            var now = Environment.TickCount64;
            _deadline.WaitUntil(
                _headerStreamId != 0 ? _headerBlockStarted + Limits.RequestHeadersTimeoutMs
                : !_settingsReceived ? _started + Limits.RequestHeadersTimeoutMs
                : _streams.Count == 0 ? now + Limits.KeepAliveTimeoutMs
                : long.MaxValue);
        }
    }

    /// <summary>After GOAWAY either way, the connection ends once its last stream has.</summary>
    private bool IsDrained()
    {
        lock (_output.Sync)
        {
            return (_stopping || _goAwayReceived) && _streams.Count == 0;
        }
    }

    public void OnHeartbeat(long now)
    {
        ExpireResponseHeadWaits(now);
        if (!_deadline.TryClaim(now))
        {
            return;
        }

        if (_ending)
        {
            // The last frames were not taken within the keep-alive timeout: a client that reads nothing would hold them,
            // and the connection, forever (RFC 9113 §5.4.1: after a connection error's GOAWAY the connection closes).
            _connection.Abort(new ConnectionAbortedException("The client did not take the connection's last frames within the keep-alive timeout."));
        }
        else
        {
            _input.CancelPendingRead();
        }
    }

    /// <summary>
    /// The response headers timeouts of the streams' forwarders (<see cref="Upstream.IResponseHeadWaitFeature"/>): the waits
    /// whose deadline passed are claimed under the output's lock and cancelled after it, their callbacks resuming the forwarders.
    /// </summary>
    private void ExpireResponseHeadWaits(long now)
    {
        List<CancellationTokenSource>? expired = null;
        lock (_output.Sync)
        {
            foreach (var stream in _streams.Values)
            {
                if (stream.ClaimResponseHeadWait(now) is { } source)
                {
                    (expired ??= []).Add(source);
                }
            }
        }

        if (expired is not null)
        {
            foreach (var source in expired)
            {
                source.Cancel();
            }
        }
    }

    /// <summary>Graceful stop (RFC 9113 §6.8): GOAWAY with the last stream taken; those finish, then the connection closes.</summary>
    public void OnStopping()
    {
        lock (_output.Sync)
        {
            _stopping = true;
            WriteGoAway(Http2ErrorCode.NoError);
            if (!_ending && _streams.Count == 0 && _deadline.TryClaim(now: null))
            {
                _input.CancelPendingRead();
            }
        }
    }

    /// <summary>A stream's task ended: the stream leaves the table and goes back to the pool.</summary>
    public void OnStreamEnded(Http2Stream stream)
    {
        lock (_output.Sync)
        {
            _streams.Remove(stream.Id);
            if (!stream.IsReset)
            {
                CreditAnsweredStream();
            }

            if (_streams.Count == 0)
            {
                OnLastStreamEnded();
            }
        }

        stream.Recycle();
        lock (_output.Sync)
        {
            if (!_closed && _pool.Count < Limits.MaxConcurrentStreams)
            {
                _pool.Push(stream);
            }
        }
    }

    /// <summary>No stream is left: the connection ends if it is closing or draining, else its keep-alive timeout runs. Under the output's lock.</summary>
    private void OnLastStreamEnded()
    {
        if (_closed)
        {
            _streamsEnded?.TrySetResult();
        }
        else if (_stopping || _goAwayReceived)
        {
            _input.CancelPendingRead();
        }
        else
        {
            _deadline.WaitUntil(Environment.TickCount64 + Limits.KeepAliveTimeoutMs);
        }
    }

    /// <summary>We reset stream <paramref name="id"/>: frames the client sent before it knew are ignored. Under the output's lock.</summary>
    public void OnResetByServer(int id) => _recentlyReset.Add(id);

    /// <summary>Sends GOAWAY once (RFC 9113 §6.8), naming the last stream taken. Under the output's lock.</summary>
    private void WriteGoAway(Http2ErrorCode code)
    {
        if (_goAwaySent || _output.IsClosed)
        {
            return;
        }

        _goAwaySent = true;
        FrameWriter.WriteGoAway(_output.Writer, _lastStreamId, code, ReadOnlySpan<byte>.Empty);
        _output.ScheduleFlush();
    }

    private void GoAway(Http2ErrorCode code)
    {
        lock (_output.Sync)
        {
            if (code != Http2ErrorCode.NoError)
            {
                // A connection error replaces a graceful GOAWAY sent before it, and is the last frame (RFC 9113 §5.4.1): no
                // stream writes after it.
                _goAwaySent = false;
                WriteGoAway(code);
                _output.Close();
                return;
            }

            WriteGoAway(code);
        }
    }

    /// <summary>Aborts the streams still open, waits for their tasks, and flushes and completes the output.</summary>
    private async Task EndAsync()
    {
        Task? streamsEnded = null;
        lock (_output.Sync)
        {
            _closed = true;
            foreach (var stream in _streams.Values)
            {
                stream.OnClientReset(new ConnectionAbortedException("The HTTP/2 connection ended."));
            }

            _output.Close();
            if (_streams.Count > 0)
            {
                streamsEnded = (_streamsEnded = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
            }
        }

        if (_clientNotReading)
        {
            // RFC 9113 §5.4.1: after a connection error's GOAWAY the connection closes; a client that reads none of what
            // the server sends would hold the last flush, and the connection, forever: the transport is aborted.
            _connection.Abort(new ConnectionAbortedException("The client reads nothing the server sends."));
        }

        if (streamsEnded is not null)
        {
            await streamsEnded;
        }

        // The last flush may wait for the client: the heartbeat aborts the transport past the keep-alive timeout.
        _ending = true;
        _deadline.WaitUntil(Environment.TickCount64 + Limits.KeepAliveTimeoutMs);
        await _output.CompleteAsync();
        await _input.CompleteAsync();
    }
}
