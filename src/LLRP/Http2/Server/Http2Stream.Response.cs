using System.Buffers;
using System.IO.Pipelines;
using LLRP.Http2.Codec;
using Microsoft.AspNetCore.Http;

namespace LLRP.Http2.Server;

/// <summary>
/// The response side: its head encoded once (HPACK, stateless) when it starts, its bytes held in a pipe until a flush
/// frames them as DATA within both send windows (RFC 9113 §6.9), waiting for WINDOW_UPDATE when they are spent, and
/// trailers or an empty DATA ending the stream.
/// </summary>
internal sealed partial class Http2Stream
{
    private readonly Pipe _responseData;
    private readonly ResponseBodyWriter _bodyWriter;
    private readonly Stream _responseStream;
    private readonly HeaderDictionary _responseHeaders = new();
    private readonly HeaderDictionary _responseTrailers = new();
    private readonly ArrayBufferWriter<byte> _headBlock = new(512);
    private readonly ArrayBufferWriter<byte> _trailerBlock = new(128);

    private int _status = StatusCodes.Status200OK;
    private bool _started;
    private bool _headSent;
    private bool _responseEnded;
    private bool _ending;

    /// <summary>The response went out whole (<see cref="TryWriteWhole"/>), its flush left to the stream's end.</summary>
    private bool _writtenWhole;

    /// <summary>The response pipe was written, flushed or read: it is completed and reset when the stream is recycled, and left as it is otherwise.</summary>
    private bool _responseDataUsed;
    private long _sendWindow;
    private TaskCompletionSource? _windowWaiter;
    private bool _sendCanceled;
    private ResponseCallbacks _callbacks;

    /// <summary>
    /// Moves this stream's send window by <paramref name="delta"/>: the client's WINDOW_UPDATE for it (RFC 9113 §6.9.1),
    /// or its change of SETTINGS_INITIAL_WINDOW_SIZE (§6.9.2). Under the output's lock.
    /// </summary>
    /// <returns>
    /// False when the window would pass 2^31-1: a stream error of type FLOW_CONTROL_ERROR for a WINDOW_UPDATE, a connection
    /// error for a SETTINGS change.
    /// </returns>
    public bool AdjustSendWindow(long delta)
    {
        if (_sendWindow + delta > int.MaxValue)
        {
            return false;
        }

        _sendWindow += delta;
        WakeSender();
        return true;
    }

    /// <summary>
    /// The application's <see cref="PipeWriter.CancelPendingFlush"/>: a send waiting for a window returns
    /// <see cref="FlushResult.IsCanceled"/>, and the next send does when none waits now.
    /// </summary>
    public void CancelPendingSend()
    {
        lock (_output.Sync)
        {
            _sendCanceled = true;
            WakeSender();
        }
    }

    /// <summary>Wakes the response waiting for a window. Under the output's lock.</summary>
    public void WakeSender()
    {
        _windowWaiter?.TrySetResult();
        _windowWaiter = null;
    }

    /// <summary>The application takes memory of the response pipe to write into (<see cref="ResponseBodyWriter"/>).</summary>
    public void MarkResponseDataUsed() => _responseDataUsed = true;

    /// <summary>Fixes the response head: OnStarting callbacks run, the head is encoded, and its fields can no longer change.</summary>
    private async ValueTask StartAsync()
    {
        if (_started)
        {
            return;
        }

        if (_callbacks.HasStarting)
        {
            await _callbacks.RunStartingAsync();
        }

        EncodeHead();
    }

    private void EncodeHead()
    {
        _started = true;
        _responseHeaders.IsReadOnly = true;
        _headBlock.ResetWrittenCount();
        HpackEncoder.EncodeStatus(_headBlock, _status);
        _headBlock.Write(_fieldLines.WrittenSpan);
        ResponseFieldEncoding.Encode(_headBlock, _responseHeaders);
    }

    /// <summary>
    /// Frames the bytes written so far; with <paramref name="end"/>, ends the stream (with trailers when there are some).
    /// Returns once every byte went out, or the stream was reset; canceled (<see cref="CancelPendingSend"/>, or
    /// <paramref name="cancellationToken"/>) while it waits for a window, with the bytes not yet framed kept for the next send.
    /// </summary>
    public async ValueTask<FlushResult> SendAsync(bool end, CancellationToken cancellationToken = default)
    {
        await StartAsync();
        var hasTrailers = false;
        if (end)
        {
            _responseTrailers.IsReadOnly = true;
            if (_responseTrailers.Count > 0)
            {
                _trailerBlock.ResetWrittenCount();
                ResponseFieldEncoding.Encode(_trailerBlock, _responseTrailers);
                hasTrailers = true;
            }
        }

        _responseDataUsed = true;
        await _responseData.Writer.FlushAsync();
        var reader = _responseData.Reader;
        while (true)
        {
            var reading = reader.TryRead(out var read);
            var buffer = reading ? read.Buffer : default;
            Task? wait;
            bool blocked;
            lock (_output.Sync)
            {
                if (_sendCanceled && !end)
                {
                    _sendCanceled = false;
                    if (reading)
                    {
                        reader.AdvanceTo(buffer.Start);
                    }

                    return new FlushResult(isCanceled: true, isCompleted: false);
                }

                if (IsReset || _output.IsClosed || _responseEnded)
                {
                    if (reading)
                    {
                        reader.AdvanceTo(buffer.End);
                    }

                    return new FlushResult(isCanceled: false, isCompleted: true);
                }

                var sent = WriteFrames(buffer, end, hasTrailers);
                _output.ScheduleFlush();
                blocked = sent < buffer.Length;
                if (reading)
                {
                    reader.AdvanceTo(buffer.GetPosition(sent));
                }

                if (blocked)
                {
                    wait = (_windowWaiter = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
                    if (_output.SendWindow <= 0)
                    {
                        _output.WindowWaiters.Add(this);
                    }
                }
                else
                {
                    wait = end ? null : _output.Drained;
                }
            }

            if (!blocked)
            {
                if (wait is not null)
                {
                    await wait.WaitAsync(cancellationToken);
                }

                return default;
            }

            await wait!.WaitAsync(cancellationToken);
        }
    }

    /// <summary>
    /// Writes the whole response at once, its head then <paramref name="body"/> ending the stream, without passing through
    /// the response pipe: when the response has not started, has no OnStarting callback, no trailers and no byte written
    /// yet, and both send windows take the body (RFC 9113 §6.9). The frames leave with the flush <see cref="EndResponseAsync"/>
    /// asks for, once the front end returned (and the forwarder gave its upstream connection back), as any response's do.
    /// False when it cannot: no frame is written, the head is fixed all the same, and the body is to be written as usual.
    /// </summary>
    public bool TryWriteWhole(in ReadOnlySequence<byte> body)
    {
        if (_started || _callbacks.HasStarting || _responseTrailers.Count > 0 || _responseData.Writer.UnflushedBytes > 0)
        {
            return false;
        }

        EncodeHead();
        lock (_output.Sync)
        {
            if (IsReset || _output.IsClosed || body.Length > Math.Min(_sendWindow, _output.SendWindow))
            {
                return false;
            }

            _responseTrailers.IsReadOnly = true;
            _ending = _writtenWhole = true;
            WriteFrames(body, end: true, hasTrailers: false);
            return true;
        }
    }

    /// <summary>Writes the head if not yet sent, then as much of <paramref name="buffer"/> as the windows allow. Under the output's lock.</summary>
    private long WriteFrames(in ReadOnlySequence<byte> buffer, bool end, bool hasTrailers)
    {
        var output = _output.Writer;
        var sent = Math.Max(0, Math.Min(buffer.Length, Math.Min(_sendWindow, _output.SendWindow)));
        var finishing = end && sent == buffer.Length;
        var endOnData = finishing && !hasTrailers;
        var frameSize = _connection.PeerMaxFrameSize;
        if (!_headSent)
        {
            _headSent = true;
            var endOnHead = endOnData && buffer.IsEmpty;
            FrameWriter.WriteHeaders(output, Id, _headBlock.WrittenSpan, endOnHead, frameSize);
            if (endOnHead)
            {
                _responseEnded = true;
                return 0;
            }
        }

        var offset = 0L;
        while (offset < sent)
        {
            var length = Math.Min(frameSize, sent - offset);
            FrameWriter.WriteData(output, Id, buffer.Slice(offset, length), endOnData && offset + length == sent);
            offset += length;
        }

        _sendWindow -= sent;
        _output.SendWindow -= sent;
        if (finishing)
        {
            if (hasTrailers)
            {
                FrameWriter.WriteHeaders(output, Id, _trailerBlock.WrittenSpan, endStream: true, frameSize);
            }
            else if (sent == 0)
            {
                FrameWriter.WriteData(output, Id, ReadOnlySpan<byte>.Empty, endStream: true);
            }

            _responseEnded = true;
        }

        return sent;
    }

    /// <summary>Ends the response once the front end returned: the rest is sent, then the stream is closed or, if the client still sends, reset with NO_ERROR (RFC 9113 §8.1).</summary>
    private async Task EndResponseAsync()
    {
        if (!_ending)
        {
            _ending = true;
            await SendAsync(end: true);
        }

        lock (_output.Sync)
        {
            if (_writtenWhole)
            {
                _output.ScheduleFlush();
            }

            if (!IsReset && !RequestEnded && !_output.IsClosed)
            {
                IsReset = true;
                FrameWriter.WriteRstStream(_output.Writer, Id, Http2ErrorCode.NoError);
                _output.ScheduleFlush();
                _connection.OnResetByServer(Id);
            }
        }

        await _callbacks.RunCompletedAsync();
    }

    /// <summary>The front end failed: a 500 if nothing was sent yet, else a reset (as Kestrel does).</summary>
    private void FailResponse()
    {
        if (_started)
        {
            Reset(Http2ErrorCode.InternalError);
            return;
        }

        _status = StatusCodes.Status500InternalServerError;
        _fieldLines.ResetWrittenCount();
        _responseHeaders.Clear();
        _responseHeaders.ContentLength = 0;
        _responseDataUsed = true;
        _ = _responseData.Writer.FlushAsync();
        if (_responseData.Reader.TryRead(out var read))
        {
            _responseData.Reader.AdvanceTo(read.Buffer.End);
        }
    }

    private void ResetResponse()
    {
        _responseHeaders.IsReadOnly = false;
        _responseHeaders.Clear();
        _responseTrailers.IsReadOnly = false;
        _responseTrailers.Clear();
        _fieldLines.ResetWrittenCount();
        (_status, _started, _headSent, _responseEnded, _ending, _windowWaiter, _sendCanceled) = (StatusCodes.Status200OK, false, false, false, false, null, false);
        _writtenWhole = false;
        _callbacks = default;
    }
}
