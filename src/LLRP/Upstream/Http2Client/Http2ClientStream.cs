using System.Buffers;
using System.IO.Pipelines;
using System.Threading.Tasks.Sources;
using LLRP.Diagnostics;
using LLRP.Http2.Codec;
using LLRP.Upstream.HttpClient;

namespace LLRP.Upstream.Http2Client;

/// <summary>
/// One request stream on an <see cref="Http2ClientConnection"/> (RFC 9113 §5.1), as the client end sees it: its send
/// window, the response head being received, a pipe for the response body and the trailers. The connection's read loop
/// fills it; the exchange that owns it reads it. Both meet under the connection output's lock. Reused stream after
/// stream by one exchange (<see cref="Begin"/>), its head's wait too (<see cref="HeadArrived"/>): the first of the read
/// loop and the exchange's timeout to claim a use's head gives it its result, a later or stale claim is a no-op.
/// </summary>
internal sealed class Http2ClientStream : IWindowWaiter, IValueTaskSource<ForwarderError>
{
    private static readonly PipeOptions BodyPipeOptions = new(
        pauseWriterThreshold: 0, readerScheduler: ReadBatchScheduler.Instance, writerScheduler: PipeScheduler.Inline, useSynchronizationContext: false);

    private readonly Pipe _body = new(BodyPipeOptions);
    private ManualResetValueTaskSourceCore<ForwarderError> _head;
    /// <summary>The head's use (<see cref="HeadUse"/>) shifted left by one, its low bit set once the use's result is claimed.</summary>
    private int _headGate;
    private TaskCompletionSource? _windowWaiter;

    /// <summary>The stream's id on its connection; 0 until its HEADERS frame is written.</summary>
    public int Id { get; set; }

    /// <summary>The stream send window (RFC 9113 §6.9.1). Under the output's lock.</summary>
    public long SendWindow { get; set; }

    /// <summary>What the destination may still send on the stream (RFC 9113 §6.9.1). Under the output's lock.</summary>
    public int ReceiveWindow { get; set; }

    /// <summary>The destination did not process the stream (RFC 9113 §8.7: REFUSED_STREAM, or above a GOAWAY's last stream id): safe to send again.</summary>
    public bool Unprocessed { get; set; }

    /// <summary>Body bytes read by the exchange and not yet given back to the destination with WINDOW_UPDATE. Under the output's lock.</summary>
    public int Unannounced { get; set; }

    /// <summary>The destination sent END_STREAM or RST_STREAM, or the connection ended: nothing more arrives. Under the output's lock.</summary>
    public bool RemoteEnded { get; set; }

    /// <summary>The stream ended on our side: END_STREAM or RST_STREAM sent. Under the output's lock.</summary>
    public bool LocalEnded { get; set; }

    /// <summary>The final response head arrived (a 1xx is not one); later HEADERS are trailers. Read loop only.</summary>
    public bool HeadReceived { get; set; }

    /// <summary>The response head as HTTP/1.1 bytes, validated by raw mode's rules once whole.</summary>
    public RenderedResponseHead Head { get; } = new();

    /// <summary>The response's trailers, as received (the exchange says which may be relayed).</summary>
    public List<KeyValuePair<string, string>> Trailers { get; } = [];

    /// <summary>The trailers' strings, kept from one response to the next (a gRPC response's trailers repeat).</summary>
    public FieldStringCache TrailerStrings { get; } = new();

    /// <summary>The response body as it arrives, completed at END_STREAM, failed by a reset or the connection's end.</summary>
    public PipeReader Body => _body.Reader;

    /// <summary>Which request the stream carries now: what a head's result is claimed for (<see cref="CompleteHead"/>).</summary>
    public short HeadUse => _head.Version;

    /// <summary>Completes with None when the response head is in, else with why none will come. Awaited once per <see cref="Begin"/>.</summary>
    public ValueTask<ForwarderError> HeadArrived => new(this, _head.Version);

    /// <summary>Takes the stream for a new request.</summary>
    public void Begin()
    {
        _head.Reset();
        _head.RunContinuationsAsynchronously = false;
        Volatile.Write(ref _headGate, (ushort)_head.Version << 1);
        Trailers.Clear();
        (Id, SendWindow, ReceiveWindow, Unannounced, RemoteEnded, LocalEnded, HeadReceived, Unprocessed) = (0, 0, 0, 0, false, false, false, false);
    }

    /// <summary>Ends the exchange's use of the stream, once its connection let it go: the body pipe is emptied for the next.</summary>
    public void End()
    {
        _body.Reader.Complete();
        _body.Writer.Complete();
        _body.Reset();
    }

    /// <summary>
    /// Gives the head's waiter <paramref name="result"/> when <paramref name="use"/> is still the stream's request and no
    /// result was claimed for it; the waiter goes on on this thread. The read loop calls it outside the output's lock,
    /// once the frames of a read are handled, so the exchange finds what came with the head already in.
    /// </summary>
    public void CompleteHead(short use, ForwarderError result)
    {
        var open = (ushort)use << 1;
        if (Interlocked.CompareExchange(ref _headGate, open | 1, open) == open)
        {
            _head.SetResult(result);
        }
    }

    /// <summary>The response headers timeout ran out, or the client went: the head's waiter goes on on the thread pool.</summary>
    public void TimeOut()
    {
        var open = (ushort)_head.Version << 1;
        if (Interlocked.CompareExchange(ref _headGate, open | 1, open) == open)
        {
            _head.RunContinuationsAsynchronously = true;
            _head.SetResult(ForwarderError.ResponseTimeout);
        }
    }

    ForwarderError IValueTaskSource<ForwarderError>.GetResult(short token) => _head.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<ForwarderError>.GetStatus(short token) => _head.GetStatus(token);

    void IValueTaskSource<ForwarderError>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _head.OnCompleted(continuation, state, token, flags);

    /// <summary>DATA for the stream (RFC 9113 §6.1): written to the body pipe, which never pushes back (the stream window bounds it). Read loop.</summary>
    public void OnData(ReadOnlySpan<byte> data, bool endStream)
    {
        if (!data.IsEmpty)
        {
            _body.Writer.Write(data);
            _ = _body.Writer.FlushAsync();
        }

        if (endStream)
        {
            _body.Writer.Complete();
        }
    }

    /// <summary>
    /// The stream failed: reset by the destination, refused, or its connection gone. The body's reader gets an error (the
    /// connection gives the head's waiter why, <see cref="CompleteHead"/>). Under the output's lock.
    /// </summary>
    public void Fail()
    {
        RemoteEnded = true;
        LocalEnded = true;
        _body.Writer.Complete(new IOException("The destination reset the stream or closed its connection."));
        WakeSender();
    }

    /// <summary>Completes when a window opens (<see cref="WakeSender"/>) or the stream ends. Under the output's lock.</summary>
    public Task WaitForWindow() => (_windowWaiter ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;

    /// <summary>Wakes the request body waiting for a window. Under the output's lock.</summary>
    public void WakeSender()
    {
        _windowWaiter?.TrySetResult();
        _windowWaiter = null;
    }
}
