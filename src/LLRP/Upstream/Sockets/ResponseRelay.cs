using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using LLRP.ClientSide;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Tasks;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// Reads one response at a time from an upstream connection, parses and validates its head, and forwards it through
/// the <see cref="ClientResponseWriter"/>: interim responses first, then the final head and its body, decoded and
/// re-framed (Content-Length exactly, chunked, or close-delimited; a chunked body's trailer section relayed to a client
/// that sent <c>TE: trailers</c>, <see cref="TrailerSectionReader"/>); or the <c>101</c> that makes the connection a tunnel,
/// whose bytes after the head are left for the tunnel. Data already read is copied without a flush; the
/// client output is flushed only before waiting for more upstream data. One per client connection.
/// </summary>
internal sealed class ResponseRelay(ClientResponseWriter client, int maxResponseHeadSize, BodyLimits chunkLimits, TimeSpan responseHeadersTimeout, UpgradeProtocols upgrades) : IDisposable
{
    private readonly ResponseHead _response = new();
    private readonly RestartableTimeout _timeout = new(responseHeadersTimeout);
    private TrailerSectionReader? _trailers;
    private ArrayBufferWriter<byte>? _trailerLines;

    /// <summary>The response headers timeout of the batch's cluster.</summary>
    public TimeSpan ResponseHeadersTimeout
    {
        set => _timeout.Duration = value;
    }

    /// <summary>Relays the response to <paramref name="request"/>.</summary>
    /// <param name="body">
    /// The request's body when it is read from the client as it comes. A final response to a client that still waits for
    /// <c>100 Continue</c> says close: that client will not send the body, so the connection cannot go on (RFC 9110
    /// §10.1.1, RFC 9112 §9.3). A response that comes while the body streams (an echo) does not: the body may still be
    /// read to its end, and the connection closes after the response only if it was not.
    /// </param>
    /// <param name="moreFollow">Later requests of the batch were sent upstream and are answered after this one.</param>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public async ValueTask<RelayOutcome> RelayAsync(UpstreamConnection upstream, PendingRequest request, ClientRequestBody? body, bool moreFollow)
    {
        var input = upstream.Input;
        var afterInterim = false;
        try
        {
            while (true)
            {
                var head = await ReadHeadAsync(input, afterInterim);
                if (head.Error != ForwarderError.None)
                {
                    return RelayOutcome.Failed(head.Error, started: false);
                }

                if (!_response.IsInterim)
                {
                    var refusedBeforeBody = body is { ExpectsContinue: true, HasStarted: false } && !afterInterim;
                    var persistent = request.IsPersistent && !refusedBeforeBody;
                    return await RelayFinalAsync(input, request, persistent, moreFollow, head.Result, head.Length);
                }

                if (_response.StatusCode == 101)
                {
                    // RFC 9110 §15.2.2: only an upgrade the client asked for, to a protocol tunnelled here, may switch.
                    if (!upgrades.AcceptsSwitch(_response, request.RequestedUpgrades))
                    {
                        input.AdvanceTo(head.Result.Buffer.Start);
                        return RelayOutcome.Failed(ForwarderError.InvalidResponse, started: false);
                    }

                    client.WriteSwitchingProtocols(_response);
                    input.AdvanceTo(head.Result.Buffer.GetPosition(head.Length));
                    return RelayOutcome.SwitchedProtocols;
                }

                client.WriteInterim(_response, request.IsHttp10);
                input.AdvanceTo(head.Result.Buffer.GetPosition(head.Length));
                if (!await client.FlushAsync())
                {
                    return RelayOutcome.Failed(ForwarderError.ClientAborted, started: false);
                }

                afterInterim = true;
            }
        }
        finally
        {
            // Nothing reads the head after the relay, and its source lies in a block of the upstream input: held until
            // the next response, it would keep that block from the transport's pool, however long the connection idles.
            _response.Reset();
        }
    }

    /// <summary>
    /// Reads until a whole response head is parsed into <see cref="_response"/>, within the response headers timeout,
    /// which runs from the first read to the end of the head however the bytes trickle in.
    /// </summary>
    /// <param name="afterInterim">An interim response came before: a close now is an invalid response, not one never answered.</param>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<HeadRead> ReadHeadAsync(PipeReader input, bool afterInterim)
    {
        var timeout = _timeout.Start();
        var receivedAny = afterInterim;
        try
        {
            while (true)
            {
                ReadResult result;
                try
                {
                    result = await input.ReadAsync(timeout);
                }
                catch (OperationCanceledException) when (timeout.IsCancellationRequested)
                {
                    return new HeadRead(ForwarderError.ResponseTimeout, default, 0);
                }
                catch (Exception e) when (ClientResponseWriter.IsConnectionFailure(e))
                {
                    return new HeadRead(receivedAny ? ForwarderError.InvalidResponse : ForwarderError.UpstreamClosed, default, 0);
                }

                var buffer = result.Buffer;
                receivedAny |= !buffer.IsEmpty;
                try
                {
                    if (ResponseHeadParser.TryParse(buffer, _response, maxResponseHeadSize, out var headLength))
                    {
                        return new HeadRead(ForwarderError.None, result, headLength);
                    }
                }
                catch (HttpMessageException)
                {
                    input.AdvanceTo(buffer.Start);
                    return new HeadRead(ForwarderError.InvalidResponse, default, 0);
                }

                input.AdvanceTo(buffer.Start, buffer.End);
                if (result.IsCompleted)
                {
                    return new HeadRead(receivedAny ? ForwarderError.InvalidResponse : ForwarderError.UpstreamClosed, default, 0);
                }
            }
        }
        finally
        {
            _timeout.Stop();
        }
    }

    /// <summary>Writes the final head, then relays its body in the framing the client can take (RFC 9112 §6.3).</summary>
    private ValueTask<RelayOutcome> RelayFinalAsync(PipeReader input, PendingRequest request, bool persistent, bool moreFollow, ReadResult result, int headLength)
    {
        var framing = client.WriteHead(_response, request.IsHead, request.IsHttp10, persistent, moreFollow);
        var bodiless = framing.Body == BodyFraming.None;
        var upstreamReusable = _response.IsPersistent && (bodiless || _response.Framing != BodyFraming.CloseDelimited);
        var outcome = new RelayOutcome(ForwarderError.None, Started: true, framing.Close, upstreamReusable, !_response.IsPersistent);
        var data = result.Buffer.Slice(headLength);
        if (bodiless)
        {
            input.AdvanceTo(data.Start);
            return ValueTask.FromResult(outcome);
        }

        return _response.Framing switch
        {
            BodyFraming.ContentLength => CopyContentLengthAsync(input, data, result.IsCompleted, _response.ContentLength, outcome),
            BodyFraming.Chunked => CopyChunkedAsync(input, data, result.IsCompleted, outcome, request.AcceptsTrailers),
            _ => CopyUntilCloseAsync(input, data, result.IsCompleted, outcome),
        };
    }

    /// <summary>Copies exactly <paramref name="length"/> bytes; fewer before the upstream closes is a failure.</summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<RelayOutcome> CopyContentLengthAsync(PipeReader input, ReadOnlySequence<byte> data, bool completed, long length, RelayOutcome outcome)
    {
        var remaining = length;
        while (true)
        {
            var take = Math.Min(remaining, data.Length);
            client.WriteBody(data.Slice(0, take));
            remaining -= take;
            input.AdvanceTo(data.GetPosition(take));
            if (remaining == 0)
            {
                return outcome;
            }

            if (completed || await ReadMoreAsync(input) is not { } next)
            {
                return RelayOutcome.Failed(ForwarderError.ResponseBodyFailed, started: true);
            }

            (data, completed) = (next.Buffer, next.IsCompleted);
        }
    }

    /// <summary>Decodes the chunked body and gives the client its data, re-framed, then its trailers when <paramref name="relayTrailers"/>.</summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<RelayOutcome> CopyChunkedAsync(PipeReader input, ReadOnlySequence<byte> data, bool completed, RelayOutcome outcome, bool relayTrailers)
    {
        var decoder = relayTrailers
            ? new ChunkedDecoder(chunkLimits.MaxChunkLineSize, chunkLimits.MaxTrailerSize, yieldsTrailerSection: true)
            : chunkLimits.NewChunkedDecoder();
        var inTrailers = false;
        while (true)
        {
            bool done;
            try
            {
                if (!inTrailers)
                {
                    var status = Decode(ref decoder, ref data);
                    inTrailers = status == ChunkedDecodeStatus.TrailerSection;
                    if (status == ChunkedDecodeStatus.Completed)
                    {
                        client.WriteEnd();
                    }
                }

                done = inTrailers ? TryRelayTrailers(ref data) : decoder.IsCompleted;
            }
            catch (HttpMessageException)
            {
                input.AdvanceTo(data.Start);
                return RelayOutcome.Failed(ForwarderError.ResponseBodyFailed, started: true);
            }

            if (done)
            {
                input.AdvanceTo(data.Start);
                return outcome;
            }

            input.AdvanceTo(data.Start, data.End);
            if (completed || await ReadMoreAsync(input) is not { } next)
            {
                return RelayOutcome.Failed(ForwarderError.ResponseBodyFailed, started: true);
            }

            (data, completed) = (next.Buffer, next.IsCompleted);
        }
    }

    /// <summary>Reads the trailer section and ends the client's chunked body with it (RFC 9112 §7.1.2); false while it is not all in.</summary>
    private bool TryRelayTrailers(ref ReadOnlySequence<byte> data)
    {
        var reader = _trailers ??= new TrailerSectionReader(chunkLimits.MaxTrailerSize);
        if (!reader.TryRead(ref data))
        {
            return false;
        }

        var lines = _trailerLines ??= new ArrayBufferWriter<byte>(256);
        lines.ResetWrittenCount();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(lines, 0);
        reader.Relay(ref writer);
        writer.Commit();
        client.WriteEnd(lines.WrittenSpan);
        return true;
    }

    /// <summary>Copies until the upstream closes (RFC 9112 §6.3 rule 8).</summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<RelayOutcome> CopyUntilCloseAsync(PipeReader input, ReadOnlySequence<byte> data, bool completed, RelayOutcome outcome)
    {
        while (true)
        {
            client.WriteBody(data);
            input.AdvanceTo(data.End);
            if (completed)
            {
                client.WriteEnd();
                return outcome;
            }

            if (await ReadMoreAsync(input) is not { } next)
            {
                return RelayOutcome.Failed(ForwarderError.ResponseBodyFailed, started: true);
            }

            (data, completed) = (next.Buffer, next.IsCompleted);
        }
    }

    /// <summary>Runs the decoder over <paramref name="data"/>, giving the client what it yields; leaves <paramref name="data"/> at what is not consumed.</summary>
    private ChunkedDecodeStatus Decode(ref ChunkedDecoder decoder, ref ReadOnlySequence<byte> data)
    {
        while (true)
        {
            var status = decoder.Decode(data, out var consumed, out var chunk);
            data = data.Slice(consumed);
            if (status != ChunkedDecodeStatus.Data)
            {
                return status;
            }

            client.WriteBody(chunk);
        }
    }

    /// <summary>Flushes what the client has been given, then waits for more upstream data; null when either side failed.</summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<ReadResult?> ReadMoreAsync(PipeReader input)
    {
        if (!await client.FlushAsync())
        {
            return null;
        }

        try
        {
            return await input.ReadAsync();
        }
        catch (Exception e) when (ClientResponseWriter.IsConnectionFailure(e))
        {
            return null;
        }
    }

    /// <summary>Releases the response head timer.</summary>
    public void Dispose() => _timeout.Dispose();
}
