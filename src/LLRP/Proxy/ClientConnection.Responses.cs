using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using LLRP.Http1;
using LLRP.Upstream.Sockets;

namespace LLRP.Proxy;

internal sealed partial class ClientConnection
{
    /// <summary>
    /// Answers the batch in order. A request the upstream closed on without answering is written again on a new
    /// connection when that is safe: after a response that closed the connection (RFC 9112 §9.6), or on a reused
    /// connection when every request left is idempotent (RFC 9110 §9.2.2). Returns true when the client connection ends.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<bool> ForwardResponsesAsync(ReadOnlySequence<byte> buffer, int count, long startTimestamp)
    {
        var retried = false;
        for (var i = 0; i < count; i++)
        {
            var outcome = await ForwardResponseAsync(_pending[i]);
            if (outcome.Error == ForwarderError.UpstreamClosed && !retried && CanRetry(i, count))
            {
                retried = true;
                if (await ResendAsync(buffer, i, count) is var resendError and not ForwarderError.None)
                {
                    Fail(ResponseOutcome.Failed(resendError, started: false));
                    return true;
                }

                i--;
                continue;
            }

            if (outcome.Error != ForwarderError.None)
            {
                Fail(outcome);
                return true;
            }

            _upstream!.CompletedResponses++;
            _metrics.RequestCompleted(startTimestamp);
            if (outcome.CloseClient)
            {
                ReleaseUpstream(outcome.UpstreamReusable && i == count - 1);
                return true;
            }

            if (!outcome.UpstreamReusable && i + 1 < count
                && await ResendAsync(buffer, i + 1, count) is var error and not ForwarderError.None)
            {
                Fail(ResponseOutcome.Failed(error, started: false));
                return true;
            }

            if (i == count - 1)
            {
                ReleaseUpstream(outcome.UpstreamReusable);
            }
        }

        return false;
    }

    private bool CanRetry(int first, int count)
    {
        if (first == 0 && _upstream!.CompletedResponses == 0)
        {
            return false;
        }

        for (var i = first; i < count; i++)
        {
            if (!_pending[i].IsIdempotent)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Reads one response (interim ones first) from the upstream and forwards it to the client.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<ResponseOutcome> ForwardResponseAsync(PendingRequest request)
    {
        var input = _upstream!.Input;
        var receivedAny = false;
        while (true)
        {
            ReadResult result;
            int headLength;
            while (true)
            {
                try
                {
                    result = await ReadResponseHeadAsync(input);
                }
                catch (TimeoutException)
                {
                    return ResponseOutcome.Failed(ForwarderError.ResponseTimeout, started: false);
                }
                catch (Exception e) when (IsConnectionFailure(e))
                {
                    return ResponseOutcome.Failed(receivedAny ? ForwarderError.InvalidResponse : ForwarderError.UpstreamClosed, started: false);
                }

                var buffer = result.Buffer;
                receivedAny |= !buffer.IsEmpty;
                bool parsed;
                try
                {
                    parsed = ResponseHeadParser.TryParse(buffer, _response, _options.MaxResponseHeadersTotalSize, out headLength);
                }
                catch (HttpMessageException)
                {
                    input.AdvanceTo(buffer.Start);
                    return ResponseOutcome.Failed(ForwarderError.InvalidResponse, started: false);
                }

                if (parsed)
                {
                    break;
                }

                input.AdvanceTo(buffer.Start, buffer.End);
                if (result.IsCompleted)
                {
                    return ResponseOutcome.Failed(buffer.IsEmpty ? ForwarderError.UpstreamClosed : ForwarderError.InvalidResponse, started: false);
                }
            }

            if (!_response.IsInterim)
            {
                return await ForwardFinalResponseAsync(request, result, headLength);
            }

            if (_response.StatusCode == 101)
            {
                input.AdvanceTo(result.Buffer.Start);
                return ResponseOutcome.Failed(ForwarderError.InvalidResponse, started: false);
            }

            if (!request.IsHttp10)
            {
                var writer = new BufferWriter<PipeWriter>(_clientOutput, headLength);
                ResponseHeadWriter.WriteInterim(ref writer, _response);
                writer.Commit();
            }

            input.AdvanceTo(result.Buffer.GetPosition(headLength));
            if (!await FlushClientAsync())
            {
                return ResponseOutcome.Failed(ForwarderError.ClientAborted, started: false);
            }
        }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<ReadResult> ReadResponseHeadAsync(PipeReader input)
    {
        var timer = _responseTimer ??= new CancellationTokenSource();
        timer.CancelAfter(_options.ResponseHeadersTimeout);
        try
        {
            return await input.ReadAsync(timer.Token);
        }
        catch (OperationCanceledException) when (timer.IsCancellationRequested)
        {
            throw new TimeoutException();
        }
        finally
        {
            if (!timer.TryReset())
            {
                timer.Dispose();
                _responseTimer = null;
            }
        }
    }

    /// <summary>Re-emits the final response head, then streams its body in the framing the client can take (RFC 9112 §6.3).</summary>
    private ValueTask<ResponseOutcome> ForwardFinalResponseAsync(PendingRequest request, ReadResult result, int headLength)
    {
        var bodyless = request.IsHead || _response.StatusCode is 204 or 304;
        var framing = bodyless ? BodyFraming.None : _response.Framing switch
        {
            BodyFraming.ContentLength => BodyFraming.ContentLength,
            _ when request.IsHttp10 => BodyFraming.CloseDelimited,
            _ => BodyFraming.Chunked,
        };
        var close = !request.IsPersistent || framing == BodyFraming.CloseDelimited || _stopping;
        var upstreamReusable = _response.IsPersistent && (bodyless || _response.Framing != BodyFraming.CloseDelimited);

        var writer = new BufferWriter<PipeWriter>(_clientOutput, headLength + 64);
        ResponseHeadWriter.Write(ref writer, _response, framing, close, request.IsHttp10 && !close);
        writer.Commit();

        var body = result.Buffer.Slice(headLength);
        var outcome = new ResponseOutcome(ForwarderError.None, Started: true, close, upstreamReusable);
        if (bodyless)
        {
            _upstream!.Input.AdvanceTo(body.Start);
            return ValueTask.FromResult(outcome);
        }

        return _response.Framing switch
        {
            BodyFraming.ContentLength => CopyContentLengthBodyAsync(body, result.IsCompleted, _response.ContentLength, outcome),
            BodyFraming.Chunked => CopyChunkedBodyAsync(body, result.IsCompleted, framing == BodyFraming.Chunked, outcome),
            _ => CopyCloseDelimitedBodyAsync(body, result.IsCompleted, framing == BodyFraming.Chunked, outcome),
        };
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<bool> FlushClientAsync()
    {
        try
        {
            if (_clientOutput.CanGetUnflushedBytes)
            {
                _metrics.BytesSent(_clientOutput.UnflushedBytes);
            }

            _clientGone = (await _clientOutput.FlushAsync()).IsCompleted;
        }
        catch (Exception e) when (IsConnectionFailure(e))
        {
            _clientGone = true;
        }

        return !_clientGone;
    }
}
