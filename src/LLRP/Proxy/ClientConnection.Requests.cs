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
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<BatchOutcome> ForwardBatchAsync(ReadOnlySequence<byte> buffer, bool clientCompleted)
    {
        var startTimestamp = Stopwatch.GetTimestamp();
        var count = 0;
        long offset = 0;
        var needMore = false;
        var streams = false;
        var close = false;
        RejectionReason? rejection = null;

        while (count < MaxBatch)
        {
            var remaining = buffer.Slice(offset);
            int headLength;
            long bodyLength;
            BodyKind body;
            try
            {
                if (!RequestHeadParser.TryParse(remaining, _request, _limits, out headLength))
                {
                    needMore = true;
                    break;
                }

                body = MeasureBody(remaining.Slice(headLength), out bodyLength);
            }
            catch (HttpMessageException e)
            {
                rejection = e.Reason;
                break;
            }

            if (body == BodyKind.Streaming && count > 0)
            {
                break;
            }

            if (count == 0 && await EnsureUpstreamAsync() is var error and not ForwarderError.None)
            {
                Fail(ResponseOutcome.Failed(error, started: false));
                return new BatchOutcome(buffer.Start, buffer.End, Close: true, StreamsBody: false);
            }

            WriteRequest(remaining, headLength, bodyLength, body);
            var length = headLength + bodyLength;
            _pending[count++] = new PendingRequest(offset, offset + length, _request.IsHeadMethod, _request.IsHttp10, _request.IsPersistent, _request.IsIdempotent);
            offset += length;
            if (body == BodyKind.Streaming)
            {
                streams = true;
                break;
            }

            if (!_request.IsPersistent)
            {
                close = true;
                break;
            }
        }

        if (count > 0)
        {
            await FlushUpstreamAsync();
            close |= !streams && await ForwardResponsesAsync(buffer, count, startTimestamp);
        }

        if (rejection is { } reason && !close)
        {
            _failureLog.RequestRejected(_connection.RemoteEndPoint, reason);
            _metrics.RequestRejected(reason);
            _clientOutput.Write(ErrorResponses.For(reason));
            close = true;
        }

        close |= count == 0 && clientCompleted;
        var consumed = buffer.GetPosition(offset);
        return new BatchOutcome(consumed, needMore ? buffer.End : consumed, close, streams);
    }

    /// <summary>Where the body of the request just parsed is (RFC 9112 §6.3); throws for a bad chunked body or one over the limit.</summary>
    private BodyKind MeasureBody(in ReadOnlySequence<byte> afterHead, out long bodyLength)
    {
        bodyLength = 0;
        var maxBody = _options.MaxRequestBodySize;
        switch (_request.Framing)
        {
            case BodyFraming.ContentLength:
                if (maxBody > 0 && _request.ContentLength > maxBody)
                {
                    HttpMessageException.Throw(RejectionReason.BodyTooLarge);
                }

                if (afterHead.Length < _request.ContentLength)
                {
                    return BodyKind.Streaming;
                }

                bodyLength = _request.ContentLength;
                return BodyKind.Buffered;
            case BodyFraming.Chunked:
                var probe = NewChunkedDecoder();
                var rest = afterHead;
                long dataLength = 0;
                while (true)
                {
                    var status = probe.Decode(rest, out var consumed, out var data);
                    dataLength += data.Length;
                    if (maxBody > 0 && dataLength > maxBody)
                    {
                        HttpMessageException.Throw(RejectionReason.BodyTooLarge);
                    }

                    if (status == ChunkedDecodeStatus.NeedMoreData)
                    {
                        return BodyKind.Streaming;
                    }

                    rest = rest.Slice(consumed);
                    if (status == ChunkedDecodeStatus.Completed)
                    {
                        bodyLength = afterHead.Length - rest.Length;
                        return BodyKind.Buffered;
                    }
                }

            default:
                return BodyKind.None;
        }
    }

    private ChunkedDecoder NewChunkedDecoder() => new(_options.MaxChunkLineSize, _options.MaxRequestHeadersTotalSize);

    /// <summary>Writes the head just parsed, and its body when it is buffered, into the upstream output.</summary>
    private void WriteRequest(in ReadOnlySequence<byte> request, int headLength, long bodyLength, BodyKind body)
    {
        var writer = new BufferWriter<PipeWriter>(_upstream!.Output, headLength + _headWriter.Overhead);
        _headWriter.Write(ref writer, _request);
        if (body == BodyKind.Buffered)
        {
            var bytes = request.Slice(headLength, bodyLength);
            if (_request.Framing == BodyFraming.ContentLength)
            {
                writer.Write(bytes);
            }
            else
            {
                var decoder = NewChunkedDecoder();
                while (decoder.Decode(bytes, out var consumed, out var data) == ChunkedDecodeStatus.Data)
                {
                    ChunkedEncoding.WriteChunk(ref writer, data);
                    bytes = bytes.Slice(consumed);
                }

                ChunkedEncoding.WriteLastChunk(ref writer);
            }
        }

        writer.Commit();
    }

    /// <summary>Writes again, on a new upstream connection, the requests of the batch from <paramref name="first"/> on.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<ForwarderError> ResendAsync(ReadOnlySequence<byte> buffer, int first, int count)
    {
        DiscardUpstream();
        if (await EnsureUpstreamAsync() is var error and not ForwarderError.None)
        {
            return error;
        }

        for (var i = first; i < count; i++)
        {
            var request = buffer.Slice(_pending[i].Start, _pending[i].End - _pending[i].Start);
            RequestHeadParser.TryParse(request, _request, _limits, out var headLength);
            var body = MeasureBody(request.Slice(headLength), out var bodyLength);
            WriteRequest(request, headLength, bodyLength, body);
        }

        await FlushUpstreamAsync();
        return ForwarderError.None;
    }
}
