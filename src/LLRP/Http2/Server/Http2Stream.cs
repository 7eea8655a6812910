using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using LLRP.Http2.Codec;
using LLRP.Upstream;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Http2.Server;

/// <summary>
/// One request stream of an <see cref="Http2Connection"/> (RFC 9113 §5.1), and the <see cref="HttpContext"/> the front
/// end gets for it: the stream implements the request and response features itself, over a small pipe for the request
/// body and another for response bytes not yet sent. The read loop opens it and feeds it (<see cref="OnData"/>,
/// <see cref="OnClientReset"/>, <see cref="AdjustSendWindow"/>), then starts its task on the thread pool, which runs
/// the front end and sends the response. Both sides meet under the connection output's lock. Pooled per connection and reset between
/// streams (<see cref="Recycle"/>).
/// </summary>
internal sealed partial class Http2Stream : IThreadPoolWorkItem, IWindowWaiter
{
    /// <summary>
    /// The response data pipe's options: its memory from the runtime's shared array pool, whose per-thread slot serves it
    /// best, since the pipe is written and read on the thread that relays the response.
    /// </summary>
    private static readonly PipeOptions ResponseDataPipeOptions = new(
        pauseWriterThreshold: 0, readerScheduler: PipeScheduler.ThreadPool, writerScheduler: PipeScheduler.Inline, useSynchronizationContext: false);

    private readonly Http2Connection _connection;
    private readonly FrameOutput<Http2Stream> _output;
    private readonly DefaultHttpContext _context;
    private readonly Action _onApplicationEnded;
    private ValueTaskAwaiter _application;
    private StreamFeatures _features;
    private int _featuresRevision;
    private CancellationTokenSource _abortSource = new();
    private bool _abortQueued;
    private bool _endStreamOnHead;

    public Http2Stream(Http2Connection connection, FrameOutput<Http2Stream> output)
    {
        _connection = connection;
        _output = output;
        _requestBody = new Pipe(connection.RequestBodyPipeOptions);
        _bodyReader = new RequestBodyReader(this, _requestBody.Reader);
        _requestStream = _bodyReader.AsStream(leaveOpen: true);
        _responseData = new Pipe(ResponseDataPipeOptions);
        _bodyWriter = new ResponseBodyWriter(this, _responseData.Writer);
        _responseStream = _bodyWriter.AsStream(leaveOpen: true);
        _features = NewFeatures();
        _featuresRevision = _features.Revision;
        _context = new DefaultHttpContext(_features);
        _onApplicationEnded = OnApplicationEnded;
    }

    public int Id { get; private set; }

    /// <summary>RST_STREAM was sent or received, or the connection ended: nothing more is sent on the stream. Under the output's lock.</summary>
    public bool IsReset { get; private set; }

    /// <summary>The client sent END_STREAM (half-closed remote, RFC 9113 §5.1). Under the output's lock.</summary>
    public bool RequestEnded { get; private set; }

    /// <summary>
    /// END_STREAM sent and received: the stream is closed (RFC 9113 §5.1) and only waits for its task to end to leave the
    /// table, so a frame for it is one on a closed stream. Under the output's lock.
    /// </summary>
    public bool IsClosed => _responseEnded && RequestEnded;

    /// <summary>Takes the stream for request <paramref name="id"/>, whose fields are then added (<see cref="AddField"/>).</summary>
    public void Open(int id, bool endStream, int sendWindow, int receiveWindow)
    {
        Id = id;
        RequestEnded = endStream;
        _endStreamOnHead = endStream;
        _sendWindow = sendWindow;
        _receiveWindow = receiveWindow;
        // END_STREAM on HEADERS (RFC 9113 §8.1): the request has no body; its pipe is completed only if someone asks for it.
        _requestBodyUsed = !endStream;
    }

    /// <summary>
    /// Runs the front end on the stream; once it returned, <see cref="OnApplicationEnded"/> sends what it answered. The
    /// front end's <see cref="ValueTask"/> is awaited here with a continuation made once per stream object, not by an
    /// async method, whose box would be allocated for every request (the front end always waits for its destination).
    /// </summary>
    void IThreadPoolWorkItem.Execute()
    {
        try
        {
            _application = _connection.Application(_context).GetAwaiter();
        }
        catch (Exception)
        {
            FailResponse();
            _application = default;
        }

        if (_application.IsCompleted)
        {
            OnApplicationEnded();
        }
        else
        {
            _application.UnsafeOnCompleted(_onApplicationEnded);
        }
    }

    /// <summary>The front end returned (or failed): the response ends, then the connection takes the stream back.</summary>
    private void OnApplicationEnded()
    {
        try
        {
            _application.GetResult();
        }
        catch (Exception)
        {
            FailResponse();
        }

        _application = default;
        _ = EndAsync();
    }

    /// <summary>Sends the rest of the response (an async method that suspends only while the client pushes back), then hands the stream back.</summary>
    private async Task EndAsync()
    {
        try
        {
            await EndResponseAsync();
        }
        catch (Exception e) when (e is IOException or InvalidOperationException or OperationCanceledException)
        {
            Reset(Http2ErrorCode.InternalError);
        }

        _connection.OnStreamEnded(this);
    }

    /// <summary>The client reset the stream (RST_STREAM), or the connection ended under it. Under the output's lock.</summary>
    public void OnClientReset(Exception reason)
    {
        if (!IsReset)
        {
            IsReset = true;
            CompleteRequestBody(reason);
            WakeSender();
            AbortRequest();
        }
    }

    /// <summary>Resets the stream from our side (RST_STREAM with <paramref name="code"/>) and aborts its request.</summary>
    public void Reset(Http2ErrorCode code)
    {
        lock (_output.Sync)
        {
            if (IsReset)
            {
                return;
            }

            IsReset = true;
            if (!_output.IsClosed && !IsClosed)
            {
                FrameWriter.WriteRstStream(_output.Writer, Id, code);
                _output.ScheduleFlush();
                _connection.OnResetByServer(Id);
            }

            CompleteRequestBody(new IOException($"The stream was reset ({code})."));
            WakeSender();
        }

        AbortRequest();
    }

    /// <summary>
    /// Fires <see cref="IHttpRequestLifetimeFeature.RequestAborted"/> once, and expires the wait for the response head,
    /// from the thread pool (their callbacks may take locks).
    /// </summary>
    private void AbortRequest()
    {
        lock (_output.Sync)
        {
            if (_abortQueued)
            {
                return;
            }

            _abortQueued = true;
        }

        var expired = ClaimResponseHeadWait(now: null);
        ThreadPool.UnsafeQueueUserWorkItem(
            static sources =>
            {
                // The abort first: the forwarder, resumed by the expiry, finds its client gone rather than a timeout.
                sources.Abort.Cancel();
                sources.Expired?.Cancel();
            },
            (Abort: _abortSource, Expired: expired),
            preferLocal: false);
    }

    /// <summary>
    /// The request body ends with <paramref name="reason"/> (a reset): its reader, if it has one, sees the failure after
    /// the bytes already received. A request that ended with its HEADERS had its whole (empty) body: nothing to fail.
    /// </summary>
    private void CompleteRequestBody(Exception reason)
    {
        if (_requestBodyUsed)
        {
            _requestBody.Writer.Complete(reason);
        }
    }

    /// <summary>Makes the stream ready for another request; once it left the connection's table and its task ended.</summary>
    public void Recycle()
    {
        if (_requestBodyUsed)
        {
            _requestBody.Writer.Complete();
            _requestBody.Reader.Complete();
            _requestBody.Reset();
            _requestBodyUsed = false;
        }

        if (_responseDataUsed)
        {
            _responseData.Writer.Complete();
            _responseData.Reader.Complete();
            _responseData.Reset();
            _responseDataUsed = false;
        }

        if (_abortQueued)
        {
            _abortSource = new CancellationTokenSource();
            _abortQueued = false;
        }

        _responseHeadWait.TakeBack();
        _responseHeadExpired = null;

        if (_features.Revision != _featuresRevision)
        {
            _context.Uninitialize();
            _features = NewFeatures();
            _featuresRevision = _features.Revision;
            _context.Initialize(_features);
        }

        (IsReset, RequestEnded, _requestAborted, _requestBodyOverride, _requestHeadersOverride) = (false, false, null, null, null);
        ResetRequest();
        ResetResponse();
    }

    private StreamFeatures NewFeatures() => new(this, _connection.ConnectionFeature);
}
