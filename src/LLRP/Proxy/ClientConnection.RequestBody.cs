using System.Buffers;
using System.Diagnostics;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Upstream.Sockets;

namespace LLRP.Proxy;

internal sealed partial class ClientConnection
{
    /// <summary>
    /// Forwards the request whose head was just written and whose body is still arriving: the body is streamed
    /// upstream while the response is read, since a downstream may answer (or ask to continue, RFC 9110 §10.1.1)
    /// before reading it all. Returns true when the client connection ends.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<bool> ForwardStreamingRequestAsync()
    {
        var startTimestamp = Stopwatch.GetTimestamp();
        var pump = PumpRequestBodyAsync(_request.Framing, _request.ContentLength);
        var outcome = await ForwardResponseAsync(_pending[0]);
        var upstreamAborted = !pump.IsCompleted;
        if (upstreamAborted)
        {
            // The response ended (or failed) before the body was all sent upstream: that connection is not known to
            // be at a message boundary, so it is aborted and never reused, even if the pump's last flush then
            // succeeds. The client's is, if its whole body was read and only the last flush is pending; otherwise
            // the rest of the body will not be read and the client connection must close too.
            _upstream?.Abort();
            if (!Volatile.Read(ref _requestBodyRead))
            {
                _clientInput.CancelPendingRead();
            }
        }

        var pumped = await pump;
        if (pumped == BodyPumpResult.Rejected)
        {
            RejectBody(outcome.Started);
            return true;
        }

        if (pumped == BodyPumpResult.ClientAborted)
        {
            Fail(ResponseOutcome.Failed(ForwarderError.ClientAborted, outcome.Started));
            return true;
        }

        if (outcome.Error != ForwarderError.None)
        {
            Fail(outcome);
            return true;
        }

        _upstream!.CompletedResponses++;
        _metrics.RequestCompleted(startTimestamp);
        ReleaseUpstream(outcome.UpstreamReusable && pumped == BodyPumpResult.Completed && !upstreamAborted);
        return outcome.CloseClient || !Volatile.Read(ref _requestBodyRead);
    }

    /// <summary>Copies the body from the client to the upstream in its framing, flushing after every read (back-pressure both ways).</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<BodyPumpResult> PumpRequestBodyAsync(BodyFraming framing, long contentLength)
    {
        var upstream = _upstream!;
        var decoder = NewChunkedDecoder();
        var remaining = contentLength;
        long total = 0;
        Volatile.Write(ref _requestBodyRead, false);
        try
        {
            while (true)
            {
                var result = await _clientInput.ReadAsync();
                if (result.IsCanceled)
                {
                    return BodyPumpResult.Cancelled;
                }

                var buffer = result.Buffer;
                SequencePosition consumed;
                bool done;
                if (framing == BodyFraming.ContentLength)
                {
                    var take = Math.Min(remaining, buffer.Length);
                    var writer = new BufferWriter<PipeWriter>(upstream.Output, 0);
                    writer.Write(buffer.Slice(0, take));
                    writer.Commit();
                    remaining -= take;
                    consumed = buffer.GetPosition(take);
                    done = remaining == 0;
                }
                else
                {
                    var rest = buffer;
                    done = TranscodeToUpstream(upstream.Output, ref decoder, ref rest, ref total);
                    consumed = rest.Start;
                }

                _metrics.BytesReceived(buffer.Slice(buffer.Start, consumed).Length);
                _clientInput.AdvanceTo(consumed, done ? consumed : buffer.End);
                Volatile.Write(ref _requestBodyRead, done);
                if (!await FlushBodyAsync(upstream))
                {
                    return BodyPumpResult.UpstreamWriteFailed;
                }

                if (done)
                {
                    return BodyPumpResult.Completed;
                }

                if (result.IsCompleted)
                {
                    HttpMessageException.Throw(RejectionReason.UnexpectedEndOfBody);
                }

            }
        }
        catch (HttpMessageException e)
        {
            _bodyRejection = e.Reason;
            upstream.Abort();
            return BodyPumpResult.Rejected;
        }
        catch (Exception e) when (IsConnectionFailure(e))
        {
            upstream.Abort();
            return BodyPumpResult.ClientAborted;
        }
    }

    /// <summary>False when the upstream no longer takes the body; its response may still come, so the connection is left to the response side.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<bool> FlushBodyAsync(UpstreamConnection upstream)
    {
        try
        {
            return !(await upstream.Output.FlushAsync()).IsCompleted;
        }
        catch (Exception e) when (IsConnectionFailure(e))
        {
            return false;
        }
    }

    /// <summary>The client's body was malformed or too large: 400/413 before the response started, else an abort.</summary>
    private void RejectBody(bool responseStarted)
    {
        _failureLog.RequestRejected(_connection.RemoteEndPoint, _bodyRejection);
        _metrics.RequestRejected(_bodyRejection);
        DiscardUpstream();
        if (responseStarted)
        {
            _connection.Abort();
        }
        else
        {
            _clientOutput.Write(ErrorResponses.For(_bodyRejection));
        }
    }

    /// <summary>Re-chunks what the decoder yields from <paramref name="data"/>; true when the last chunk was written.</summary>
    private bool TranscodeToUpstream(PipeWriter output, ref ChunkedDecoder decoder, ref ReadOnlySequence<byte> data, ref long total)
    {
        var writer = new BufferWriter<PipeWriter>(output, 32);
        var maxBody = _options.MaxRequestBodySize;
        while (true)
        {
            var status = decoder.Decode(data, out var consumed, out var chunk);
            data = data.Slice(consumed);
            if (status == ChunkedDecodeStatus.Data)
            {
                total += chunk.Length;
                if (maxBody > 0 && total > maxBody)
                {
                    HttpMessageException.Throw(RejectionReason.BodyTooLarge);
                }

                ChunkedEncoding.WriteChunk(ref writer, chunk);
                continue;
            }

            if (status == ChunkedDecodeStatus.Completed)
            {
                ChunkedEncoding.WriteLastChunk(ref writer);
            }

            writer.Commit();
            return status == ChunkedDecodeStatus.Completed;
        }
    }
}
