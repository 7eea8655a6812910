using System.Buffers;
using System.IO.Pipelines;
using LLRP.Diagnostics;
using LLRP.Http2.Codec;
using LLRP.Upstream.HttpClient;

namespace LLRP.Upstream.Http2Client;

/// <summary>
/// One request stream on an <see cref="Http2ClientConnection"/> (RFC 9113 §5.1), as the client end sees it: its send
/// window, the response head being received, a pipe for the response body and the trailers. The connection's read loop
/// fills it; the exchange that owns it reads it. Both meet under the connection output's lock. Reused stream after
/// stream by one exchange (<see cref="Begin"/>).
/// </summary>
internal sealed class Http2ClientStream : IWindowWaiter
{
    private static readonly PipeOptions BodyPipeOptions = new(
        pauseWriterThreshold: 0, readerScheduler: PipeScheduler.ThreadPool, writerScheduler: PipeScheduler.Inline, useSynchronizationContext: false);

    private readonly Pipe _body = new(BodyPipeOptions);
    private TaskCompletionSource<ForwarderError> _head = NewHead();
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

    /// <summary>The response body as it arrives, completed at END_STREAM, failed by a reset or the connection's end.</summary>
    public PipeReader Body => _body.Reader;

    /// <summary>Completes with None when the response head is in, else with why none will come.</summary>
    public Task<ForwarderError> HeadArrived => _head.Task;

    /// <summary>Takes the stream for a new request.</summary>
    public void Begin()
    {
        if (_head.Task.IsCompleted)
        {
            _head = NewHead();
        }

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

    /// <summary>The response head is whole and final. Read loop.</summary>
    public void OnHead() => _head.TrySetResult(ForwarderError.None);

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
    /// The stream failed: reset by the destination, refused, or its connection gone. The head's waiter gets
    /// <paramref name="beforeHead"/>, the body's reader an error. Under the output's lock.
    /// </summary>
    public void Fail(ForwarderError beforeHead)
    {
        RemoteEnded = true;
        LocalEnded = true;
        _head.TrySetResult(beforeHead);
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

    private static TaskCompletionSource<ForwarderError> NewHead() => new(TaskCreationOptions.RunContinuationsAsynchronously);
}
