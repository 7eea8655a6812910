using System.Buffers;
using System.Runtime.CompilerServices;
using LLRP.ClientSide;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Tasks;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// Raw mode: LLRP's own HTTP/1.1 client over sockets. A batch of pipelined requests is written upstream back to back
/// (heads re-emitted by the <see cref="RequestRewriter"/>, buffered bodies with them), flushed once, and answered in
/// order by the <see cref="ResponseRelay"/>. A request whose body is still arriving goes alone: its body is pumped
/// upstream (<see cref="RequestBodyPump"/>) while its response is relayed, since a destination may answer, or ask to
/// continue (RFC 9110 §10.1.1), before reading it all. Requests the upstream did not answer are written again on a new
/// connection when that is safe: after a response that announced the close (RFC 9112 §9.6), or when every request left
/// is idempotent (RFC 9110 §9.2.2, RFC 9112 §9.3.1) and the connection had answered before.
/// </summary>
internal sealed class SocketsForwarder(UpstreamSession upstream, ResponseRelay relay, RequestRewriter rewriter, RequestLimits limits) : IRequestForwarder
{
    /// <summary>Grows to the largest batch the connection has sent (at most the batch limit), so an idle connection holds little.</summary>
    private PendingRequest[] _pending = new PendingRequest[1];
    /// <summary>Parses the requests written again on a new connection; made on the first such resend, so an idle connection does not hold it.</summary>
    private RequestHead? _resent;
    private int _count;

    public ForwarderTraits Traits => ForwarderTraits.Pipelining;

    public ValueTask<ForwarderError> BeginBatchAsync(DestinationEndpoint destination, ClusterOptions cluster)
    {
        _count = 0;
        relay.ResponseHeadersTimeout = cluster.ResponseHeadersTimeout;
        return upstream.EnsureAsync(destination);
    }

    public void Add(RequestHead head, in ReadOnlySequence<byte> message, int headLength, long bodyLength, BodyKind body)
    {
        var request = message.Slice(0, headLength + bodyLength);
        Write(head, request, headLength, body);
        if (head.IsUpgrade)
        {
            request = new ReadOnlySequence<byte>(request.ToArray());
        }

        if (_count == _pending.Length)
        {
            Array.Resize(ref _pending, Math.Min(_pending.Length * 4, ForwarderTraits.Pipelining.MaxBatch));
        }

        _pending[_count++] = new PendingRequest(request, headLength, body, head.IsHeadMethod, head.IsHttp10, head.IsPersistent, head.IsIdempotent, head.RequestedUpgrades, head.AcceptsTrailers);
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public async ValueTask<ForwardResult> ForwardAsync(ClientRequestBody? body)
    {
        await FlushAsync();
        return body is null ? await AnswerBatchAsync() : await ForwardStreamingAsync(body);
    }

    public ValueTask DisposeAsync()
    {
        upstream.Discard();
        relay.Dispose();
        return default;
    }

    /// <summary>Re-emits a request head, and its body when buffered, into the upstream output.</summary>
    private void Write(RequestHead head, in ReadOnlySequence<byte> request, int headLength, BodyKind body)
    {
        var writer = new BufferWriter<PipeWriterAdapter>(new PipeWriterAdapter(upstream.Connection.Output), headLength + rewriter.Overhead);
        rewriter.WriteHead(ref writer, head);
        if (body == BodyKind.Buffered)
        {
            writer.Write(request.Slice(headLength));
        }

        writer.Commit();
    }

    /// <summary>Answers the batch in order, writing requests again on a new connection where the rules above allow.</summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<ForwardResult> AnswerBatchAsync()
    {
        var retried = false;
        for (var i = 0; i < _count; i++)
        {
            var outcome = await relay.RelayAsync(upstream.Connection, _pending[i], body: null, moreFollow: i < _count - 1);
            if (outcome.Error == ForwarderError.UpstreamClosed && !retried && CanRetry(i))
            {
                retried = true;
                if (await ResendAsync(i) is var resendError and not ForwarderError.None)
                {
                    return ForwardResult.Failed(i, resendError, started: false);
                }

                i--;
                continue;
            }

            if (outcome.Error != ForwarderError.None)
            {
                upstream.Discard();
                return ForwardResult.Failed(i, outcome.Error, outcome.Started);
            }

            if (outcome.Switched)
            {
                // An upgrade request is alone in its batch.
                return ForwardResult.Switched(upstream.Detach());
            }

            upstream.Connection.CompletedResponses++;
            var last = i == _count - 1;
            if (outcome.CloseClient)
            {
                upstream.Release(outcome.UpstreamReusable && last);
                return new ForwardResult(i + 1, ForwarderError.None, Started: true, CloseClient: true);
            }

            if (!outcome.UpstreamReusable && !last)
            {
                // The requests after this one reached a connection that will not answer them. They are written again
                // on a new one when the destination said it processed none of them, or when each may be repeated.
                if (!outcome.UpstreamAnnouncedClose && !CanRetry(i + 1))
                {
                    upstream.Discard();
                    return ForwardResult.Failed(i + 1, ForwarderError.UpstreamClosed, started: false);
                }

                if (await ResendAsync(i + 1) is var error and not ForwarderError.None)
                {
                    return ForwardResult.Failed(i + 1, error, started: false);
                }
            }

            if (last)
            {
                upstream.Release(outcome.UpstreamReusable);
            }
        }

        return new ForwardResult(_count, ForwarderError.None, Started: true, CloseClient: false);
    }

    /// <summary>
    /// Forwards the batch's only request while its body is pumped (the relay says when the response announces close).
    /// The client connection closes after the response if the body was not read to its end. If the response ends
    /// before the pump, the upstream connection is not known to be at a message boundary and is discarded. The pump is
    /// stopped and awaited on every way out, a relay that throws included, so nothing is left reading the client input.
    /// </summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<ForwardResult> ForwardStreamingAsync(ClientRequestBody body)
    {
        var connection = upstream.Connection;
        var pump = RequestBodyPump.PumpAsync(body, connection);
        RelayOutcome outcome;
        try
        {
            outcome = await relay.RelayAsync(connection, _pending[0], body, moreFollow: false);
        }
        catch
        {
            StopPump(pump, connection, body);
            await AwaitStoppedPumpAsync(pump);
            throw;
        }

        var cutShort = StopPump(pump, connection, body);
        var pumped = await pump;
        if (pumped is BodyPumpResult.Rejected or BodyPumpResult.ClientAborted || outcome.Error != ForwarderError.None)
        {
            upstream.Discard();
            return ForwardResult.Failed(0, outcome.Error, outcome.Started);
        }

        connection.CompletedResponses++;
        upstream.Release(outcome.UpstreamReusable && pumped == BodyPumpResult.Completed && !cutShort);
        return new ForwardResult(1, ForwarderError.None, Started: true, outcome.CloseClient || !body.IsCompleted);
    }

    /// <summary>Stops a pump the response finished (or failed) before; true when it was still running.</summary>
    private static bool StopPump(ValueTask<BodyPumpResult> pump, UpstreamConnection connection, ClientRequestBody body)
    {
        if (pump.IsCompleted)
        {
            return false;
        }

        connection.Abort();
        if (!body.IsCompleted)
        {
            body.CancelPendingRead();
        }

        return true;
    }

    /// <summary>Waits for a pump stopped because the relay threw: the relay's exception is the one that goes on, so the pump's own is dropped.</summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder))]
    private static async ValueTask AwaitStoppedPumpAsync(ValueTask<BodyPumpResult> pump)
    {
        try
        {
            await pump;
        }
        catch (Exception)
        {
            // Observed; the relay's failure is the one reported.
        }
    }

    private bool CanRetry(int first)
    {
        if (first == 0 && upstream.Connection.CompletedResponses == 0)
        {
            return false;
        }

        for (var i = first; i < _count; i++)
        {
            if (!_pending[i].IsIdempotent)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Writes again, on a new upstream connection, the requests of the batch from <paramref name="first"/> on.</summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<ForwarderError> ResendAsync(int first)
    {
        var destination = upstream.Connection.Destination;
        upstream.Discard();
        if (await upstream.EnsureAsync(destination) is var error and not ForwarderError.None)
        {
            return error;
        }

        for (var i = first; i < _count; i++)
        {
            var request = _pending[i];
            var resent = _resent ??= new RequestHead();
            RequestHeadParser.TryParse(request.Message, resent, limits, out _);
            Write(resent, request.Message, request.HeadLength, request.Body);
        }

        await FlushAsync();
        return ForwarderError.None;
    }

    /// <summary>Flushes what was written upstream. A failure here shows again, classified, when the response is read.</summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder))]
    private async ValueTask FlushAsync()
    {
        try
        {
            await upstream.Connection.Output.FlushAsync();
        }
        catch (Exception e) when (ClientResponseWriter.IsConnectionFailure(e))
        {
            upstream.Connection.Abort();
        }
    }
}
