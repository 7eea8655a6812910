using System.Buffers;
using System.Diagnostics;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using LLRP.ClientSide;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.ProxyProtocol;
using LLRP.Tasks;
using LLRP.Upstream;
using LLRP.Routing;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Proxy;

/// <summary>
/// One client connection, the same in every mode: it owns the client side and hands requests to the mode's
/// <see cref="IRequestForwarder"/>. Per read of the client input:
/// 1. parse every complete request head in the buffer, up to the forwarder's batch size, with the limits applied
///    (a request whose body is still to be read ends the batch, and is forwarded alone);
/// 2. hand each to the forwarder, which sends them and writes every response, in order (<see cref="ForwardBatchAsync"/>);
/// 3. report a failure once and answer it: an error response before the response started, an abort after;
/// 4. advance the client input past the batch, in one place.
/// The requests of a batch share one route (<see cref="ClientRouting"/>): a request of another route starts the next
/// batch, and one that no route takes is answered 404. The routing picks the batch's destination, holds a slot of its
/// limit while it is forwarded, feeds its passive health with the outcome, and sends an unanswered batch elsewhere when
/// the <see cref="ErrorPolicy"/> allows it (RFC 9110 §9.2.2).
/// The batch's forwarder is the connection's, but in raw mode for a route whose cluster asks HTTP/2
/// (<see cref="Cluster.OverHttpClient"/>): its requests go over an HttpClient forwarder, made for the connection when the
/// first such request comes, whose traits shape the batch (one request, bodies streamed, <c>Expect: 100-continue</c>
/// answered by the proxy, asterisk-form refused). The first request's route picks it, so a batch never mixes forwarders.
/// The client output is flushed when the session is about to wait for its client, so that the responses to
/// pipelined requests leave together. An upgrade request to a tunnelled protocol goes alone; answered with <c>101</c>,
/// the connection becomes a tunnel (<see cref="TunnelRelay"/>) until either side ends it, then closes. Idle,
/// request-head and tunnel-idle deadlines are kept by <see cref="ClientConnectionTracker"/>'s heartbeat.
/// </summary>
internal sealed class ClientSession : ITrackedConnection
{
    /// <summary>The scheme of a plain client connection, as <c>X-Forwarded-Proto</c> gives it.</summary>
    private static readonly byte[] HttpScheme = "http"u8.ToArray();

    /// <summary>The scheme of a client connection whose TLS the listener terminated (RFC 9110 §4.2.2).</summary>
    private static readonly byte[] HttpsScheme = "https"u8.ToArray();

    private readonly ConnectionContext _connection;
    private readonly PipeReader _input;
    private readonly ClientSessionServices _services;
    private readonly ClientResponseWriter _response;
    private readonly ClientRequestBody _body;
    private readonly IRequestForwarder _forwarder;
    private readonly RequestRewriter _rewriter;
    private readonly RequestHead _head = new();
    private readonly ConnectionDeadline _deadline = new();
    private readonly ForwarderTraits _traits;
    private readonly TunnelActivity _tunnel;
    private readonly ClientRouting _routing;
    private readonly AccessLogRecorder? _accessLog;

    /// <summary>In raw mode, the HttpClient forwarder of the routes whose cluster asks HTTP/2: made when the first such request comes.</summary>
    private IRequestForwarder? _http2Forwarder;

    private volatile bool _stopping;

    public ClientSession(ConnectionContext connection, ClientSessionServices services)
    {
        _connection = connection;
        _input = connection.Transport.Input;
        _services = services;
        var clientAddress = ClientAddress.Of(connection.RemoteEndPoint);
        _accessLog = services.AccessLog is { } accessLog
            ? new AccessLogRecorder(accessLog, services.AccessLogFormat, clientAddress, connection.Features.Get<ProxyHeaderFeature>())
            : null;
        _response = new ClientResponseWriter(connection.Transport.Output, services.Metrics, timed: _accessLog is not null);
        _body = new ClientRequestBody(_input, _response, services.BodyLimits);
        _tunnel = new TunnelActivity(services.Metrics);
        _rewriter = new RequestRewriter([], [], clientAddress, SchemeOf(connection), services.Rewrite);
        _forwarder = services.Forwarders.Create(NewForwarderContext());
        _traits = _forwarder.Traits;
        _routing = new ClientRouting(services.Router, _forwarder, _rewriter, _response, services.Routing, IsTls(connection) ? 443 : 80);
    }

    public async Task RunAsync()
    {
        _services.Tracker.Add(this);
        try
        {
            var headStarted = long.MaxValue;
            while (!_stopping)
            {
                _deadline.WaitUntil(headStarted != long.MaxValue
                    ? headStarted + _services.RequestHeadersTimeoutMs
                    : Environment.TickCount64 + _services.KeepAliveTimeoutMs);
                if (_stopping)
                {
                    // OnStopping may have run between the loop's check and the deadline being set, and found nothing to cancel.
                    break;
                }

                var read = _input.ReadAsync();
                if ((!read.IsCompleted || _response.HasBacklog) && !await _response.FlushAsync())
                {
                    break;
                }

                var result = await read;
                var buffer = result.Buffer;
                if (!_deadline.TakeBack())
                {
                    if (!_stopping && !buffer.IsEmpty)
                    {
                        _accessLog?.Reset();
                        Answer(ErrorResponses.RequestTimeout, startTimestamp: 0, routed: false);
                    }

                    break;
                }

                if (result.IsCanceled)
                {
                    // A body read cancelled once its request was answered: nothing was consumed, read again.
                    _input.AdvanceTo(buffer.Start);
                    continue;
                }

                if (buffer.IsEmpty && result.IsCompleted)
                {
                    break;
                }

                var batch = await ForwardBatchAsync(buffer, result.IsCompleted);

                // Nothing reads the head after its batch, and its source lies in a block of the input: held until the
                // next request, it would keep that block from the transport's pool, however long the connection idles.
                _head.Reset();
                headStarted = !batch.HeadPending ? long.MaxValue
                    : headStarted != long.MaxValue ? headStarted
                    : Environment.TickCount64;
                if (batch.Close)
                {
                    break;
                }
            }

            await _response.FlushAsync();
        }
        catch (Exception e) when (ClientResponseWriter.IsConnectionFailure(e))
        {
            // The client went away; there is nobody left to answer.
        }
        finally
        {
            _services.Tracker.Remove(this);
            await _forwarder.DisposeAsync();
            if (_http2Forwarder is not null)
            {
                await _http2Forwarder.DisposeAsync();
            }
        }
    }

    public void OnHeartbeat(long now)
    {
        if (_deadline.TryClaim(now))
        {
            _input.CancelPendingRead();
        }
        else if (_tunnel.IsIdle(now, _services.TunnelIdleTimeoutMs))
        {
            _connection.Abort(new ConnectionAbortedException("The tunnel was idle for longer than its timeout."));
            _tunnel.AbortUpstream();
        }
    }

    public void OnStopping()
    {
        _stopping = true;
        _response.Stopping = true;
        Interlocked.MemoryBarrier();
        if (_deadline.TryClaim(now: null))
        {
            _input.CancelPendingRead();
        }
        else if (_tunnel.IsOpen)
        {
            // A tunnel has no message boundary to stop at.
            _connection.Abort(new ConnectionAbortedException("The proxy is stopping."));
            _tunnel.AbortUpstream();
        }
    }

    /// <summary>
    /// Parses and forwards the requests of one read, then advances the client input past them. A request whose body is
    /// read as it comes is forwarded alone, after its head is consumed.
    /// </summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<BatchResult> ForwardBatchAsync(ReadOnlySequence<byte> buffer, bool clientCompleted)
    {
        var startTimestamp = Stopwatch.GetTimestamp();
        var count = 0;
        long offset = 0;
        var needMore = false;
        var close = false;
        var streams = false;
        var upgrades = false;
        var idempotent = true;
        Route? batchRoute = null;
        RejectionReason? rejection = null;
        var forwarder = _forwarder;
        var traits = _traits;
        _accessLog?.Reset();
        while (count < traits.MaxBatch)
        {
            var remaining = buffer.Slice(offset);
            int headLength;
            long bodyLength;
            BodyKind body;
            Route? route = null;
            try
            {
                if (!RequestHeadParser.TryParse(remaining, _head, _services.Limits, out headLength))
                {
                    needMore = true;
                    break;
                }

                body = RequestBodyLocator.Locate(_head, remaining.Length - headLength, _services.BodyLimits, out bodyLength);
                if (!_routing.IsRoutable(_head))
                {
                    HttpMessageException.Throw(RejectionReason.DotSegmentInPath);
                }

                if (count == 0)
                {
                    // The first request's route picks the batch's forwarder, whose traits then shape the batch.
                    route = _routing.Match(_head);
                    (forwarder, traits) = route is { Cluster.OverHttpClient: true } && _services.Http2ClusterForwarders is { } http2
                        ? Http2Forwarder(http2)
                        : (_forwarder, _traits);
                }

                if (body == BodyKind.Buffered && !traits.TakesBufferedBodies)
                {
                    (body, bodyLength) = (BodyKind.Streaming, 0);
                }

                if (_head.IsAsteriskForm && !traits.SendsAsteriskForm)
                {
                    HttpMessageException.Throw(RejectionReason.AsteriskFormNotForwarded);
                }
            }
            catch (HttpMessageException e)
            {
                rejection = e.Reason;
                break;
            }

            _head.RequestedUpgrades = body == BodyKind.None ? _services.Upgrades.Accepts(_head) : 0;
            if ((body == BodyKind.Streaming || _head.IsUpgrade) && count > 0)
            {
                break;
            }

            if (count > 0)
            {
                route = _routing.Match(_head);
                if (!ReferenceEquals(route, batchRoute) || route?.Cluster.Affinity is not null)
                {
                    // A batch has one route, so one forwarder; under session affinity each request has its own destination.
                    break;
                }
            }

            if (route is null)
            {
                if (AnswerUnrouted(body, startTimestamp))
                {
                    offset += headLength + bodyLength;
                    continue;
                }

                close = true;
                break;
            }

            _accessLog?.Capture(_head, firstOfBatch: count == 0);
            if (count == 0)
            {
                _routing.Forwarder = forwarder;
            }

            if (count == 0 && await _routing.BeginAsync(route, _head.IsIdempotent, _head) is var error and not ForwarderError.None)
            {
                _routing.Release();
                Fail(error, started: false, startTimestamp);
                Consume(buffer, 0, buffer.Length);
                return new BatchResult(Close: true, HeadPending: false);
            }

            batchRoute = route;
            forwarder.Add(_head, remaining, headLength, bodyLength, body);
            idempotent &= _head.IsIdempotent;
            count++;
            offset += headLength + bodyLength;
            if (_head.IsUpgrade)
            {
                // Nothing after an upgrade request is forwarded before its answer says whether the bytes are a tunnel's.
                upgrades = true;
                break;
            }

            if (body == BodyKind.Streaming)
            {
                streams = true;
                _body.Reset(_head.Framing, _head.ContentLength, _head.ExpectsContinue && !_head.IsHttp10, traits.AnswersContinue);
                break;
            }

            if (!_head.IsPersistent || _head.IsHttp10)
            {
                // Nothing is sent after a request that ends the connection; nor after an HTTP/1.0 one, whose response
                // may turn out close-delimited (and then end the connection) only once it is being relayed.
                break;
            }
        }

        try
        {
            if (streams)
            {
                Consume(buffer, offset, offset);
                var streamed = Reported(await forwarder.ForwardAsync(_body));
                _services.Metrics.BytesReceived(_body.BytesConsumed);
                return new BatchResult(Complete(streamed, startTimestamp, _body), HeadPending: false);
            }

            if (upgrades)
            {
                // The client input is advanced past the head first: after a 101, what follows it is the tunnel's.
                Consume(buffer, offset, offset);
                return new BatchResult(await ForwardUpgradeAsync(startTimestamp), HeadPending: false);
            }

            if (count > 0)
            {
                var result = Reported(await forwarder.ForwardAsync(body: null));
                if (_routing.IsUnanswered(result, idempotent))
                {
                    result = await RetryBufferedAsync(buffer, count, idempotent, result);
                }

                close = Complete(result, startTimestamp, body: null);
            }
        }
        finally
        {
            _routing.Release();
        }

        if (close && count == 0 && rejection is null)
        {
            // A request no route takes, whose body is not read or whose connection ends: answered 404, then closed.
            Answer(ErrorResponses.For(ForwarderError.NoRoute), startTimestamp, routed: false);
        }
        else if (rejection is { } reason && !close)
        {
            Reject(reason, started: false, startTimestamp, routed: false);
            close = true;
        }

        Consume(buffer, offset, needMore ? buffer.Length : offset);
        return new BatchResult(close || (count == 0 && clientCompleted), needMore && !close && offset < buffer.Length);
    }

    /// <summary>
    /// Sends again, to another destination, a batch whose requests and bodies are all in <paramref name="buffer"/> and
    /// that <paramref name="result"/> left unanswered (<see cref="ClientRouting.IsUnanswered"/>): parsed again from the buffer, while
    /// retries remain.
    /// </summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<ForwardResult> RetryBufferedAsync(ReadOnlySequence<byte> buffer, int count, bool idempotent, ForwardResult result)
    {
        do
        {
            var error = await _routing.RetryElsewhereAsync(result.Error, idempotent);
            if (error != ForwarderError.None)
            {
                return ForwardResult.Failed(0, error, started: false);
            }

            AddAgain(buffer, count);
            result = Reported(await _routing.Forwarder.ForwardAsync(body: null));
        }
        while (_routing.IsUnanswered(result, idempotent));

        return result;
    }

    /// <summary>Reports a forwarded batch's outcome to its destination's health, and returns it.</summary>
    private ForwardResult Reported(in ForwardResult result)
    {
        _routing.Report(result.Error, result.Completed);
        return result;
    }

    /// <summary>Adds the batch's <paramref name="count"/> requests again, parsed anew from the start of <paramref name="buffer"/>, where the first parse found them whole.</summary>
    private void AddAgain(in ReadOnlySequence<byte> buffer, int count)
    {
        long offset = 0;
        for (var i = 0; i < count; i++)
        {
            var remaining = buffer.Slice(offset);
            RequestHeadParser.TryParse(remaining, _head, _services.Limits, out var headLength);
            var body = RequestBodyLocator.Locate(_head, remaining.Length - headLength, _services.BodyLimits, out var bodyLength);
            _head.RequestedUpgrades = 0;
            _routing.Match(_head);
            _routing.Forwarder.Add(_head, remaining, headLength, bodyLength, body);
            offset += headLength + bodyLength;
        }
    }

    /// <summary>
    /// Forwards an upgrade request (RFC 9110 §7.8). Answered with <c>101</c>, the connection is a tunnel until either side
    /// ends it, then closes; answered otherwise, it goes on as an ordinary HTTP/1.1 connection.
    /// </summary>
    private async ValueTask<bool> ForwardUpgradeAsync(long startTimestamp)
    {
        var result = Reported(await _routing.Forwarder.ForwardAsync(body: null));
        var close = Complete(result, startTimestamp, body: null);
        if (result.Tunnel is not { } tunnel)
        {
            return close;
        }

        if (_tunnel.TryOpen(tunnel, _response))
        {
            if (await _response.FlushAsync())
            {
                await TunnelRelay.RunAsync(_connection, tunnel, _tunnel);
                return true;
            }

            _tunnel.Close();
        }

        // Stopping, or the client is gone: the tunnel ends before it began.
        tunnel.Abort();
        await tunnel.DisposeAsync();
        return true;
    }

    /// <summary>
    /// The connection's forwarder for the routes whose cluster raw mode leaves to HttpClient (<see cref="Cluster.OverHttpClient"/>),
    /// made the first time, and its traits.
    /// </summary>
    private (IRequestForwarder Forwarder, ForwarderTraits Traits) Http2Forwarder(IForwarderFactory factory)
    {
        var forwarder = _http2Forwarder ??= factory.Create(NewForwarderContext());
        return (forwarder, forwarder.Traits);
    }

    /// <summary>What a forwarder of this connection is given (made when one is, so an idle connection holds none).</summary>
    private ForwarderContext NewForwarderContext() => new(
        _rewriter, _services.Limits, _response, _body, _connection.RemoteEndPoint, _connection.LocalEndPoint, _connection.ConnectionId,
        _services.Upgrades, _connection.Transport, _tunnel, _connection.Features.Get<ProxyHeaderFeature>());

    private void Consume(in ReadOnlySequence<byte> buffer, long consumed, long examined)
    {
        _services.Metrics.BytesReceived(consumed);
        _input.AdvanceTo(buffer.GetPosition(consumed), buffer.GetPosition(examined));
    }

    /// <summary>Counts the completed responses, answers a failure, and says whether the client connection ends.</summary>
    private bool Complete(in ForwardResult result, long startTimestamp, ClientRequestBody? body)
    {
        for (var i = 0; i < result.Completed; i++)
        {
            _services.Metrics.RequestCompleted(startTimestamp, _routing.Destination!.Tag, i < _response.Recorded ? _response.RecordOf(i).Status : 0);
        }

        _accessLog?.Forwarded(_response, startTimestamp, _routing.Route?.Id, _routing.Destination?.Name);
        _response.ClearRecords();
        switch (body?.Failure)
        {
            case RequestBodyFailure.Rejected:
                Reject(body.Rejection, result.Started, startTimestamp, routed: true);
                return true;
            case RequestBodyFailure.ClientAborted:
                _connection.Abort();
                return true;
        }

        if (result.Error != ForwarderError.None)
        {
            Fail(result.Error, result.Started, startTimestamp);
            return true;
        }

        return result.CloseClient;
    }

    /// <summary>A malformed or refused request: 400/413/414/431/501/505 with <c>Connection: close</c>, or an abort once a response started.</summary>
    /// <param name="routed">The request had a route and a destination, which its access log line names.</param>
    private void Reject(RejectionReason reason, bool started, long startTimestamp, bool routed)
    {
        _services.FailureLog.RequestRejected(_connection.RemoteEndPoint, reason);
        _services.Metrics.RequestRejected(reason);
        if (started)
        {
            _connection.Abort();
        }
        else
        {
            Answer(ErrorResponses.For(reason), startTimestamp, routed);
        }
    }

    /// <summary>Reports a forwarding failure once (not the client's own leaving), then answers it: 502/504, or an abort once the response started.</summary>
    private void Fail(ForwarderError error, bool started, long startTimestamp)
    {
        if (ErrorPolicy.IsReported(error) && !_response.ClientGone)
        {
            var destination = error == ForwarderError.NoHealthyDestination ? null : _routing.Destination;
            _services.FailureLog.ForwardingFailed(destination?.Name ?? "(no destination available)", error);
            _services.Metrics.ForwardingFailed(error, destination?.Tag ?? default);
        }

        if (started || ErrorPolicy.StatusCode(error) == 0)
        {
            _connection.Abort();
        }
        else
        {
            Answer(error == ForwarderError.NoHealthyDestination
                ? ErrorResponses.NoHealthyDestination(_routing.RetryAfterSeconds())
                : ErrorResponses.For(error), startTimestamp, routed: error is not (ForwarderError.NoHealthyDestination or ForwarderError.AffinityDestinationUnavailable));
        }
    }

    /// <summary>
    /// Answers a request that no route takes with 404 (counted, not logged). Returns true when the connection goes on
    /// with the next request: the request had no body to read and its connection persists; else the session answers it
    /// and closes.
    /// </summary>
    private bool AnswerUnrouted(BodyKind body, long startTimestamp)
    {
        _services.Metrics.RequestUnrouted();
        _accessLog?.Capture(_head, firstOfBatch: false);
        if (body == BodyKind.Streaming || !_head.IsPersistent || _head.IsHttp10 || _stopping)
        {
            return false;
        }

        Answer(ErrorResponses.NoRoute, startTimestamp, routed: false);
        return true;
    }

    /// <summary>Writes an answer the proxy makes itself, and its access log line: with the batch's route and destination when <paramref name="routed"/>.</summary>
    private void Answer(ReadOnlySpan<byte> answer, long startTimestamp, bool routed)
    {
        _response.WriteRaw(answer);
        _accessLog?.Answered(answer, startTimestamp, routed ? _routing.Route?.Id : null, routed ? _routing.Destination?.Name : null);
    }

    /// <summary><c>https</c> for a connection that came over TLS (the listener's TLS middleware set its feature), else <c>http</c>.</summary>
    private static byte[] SchemeOf(ConnectionContext connection) => IsTls(connection) ? HttpsScheme : HttpScheme;

    private static bool IsTls(ConnectionContext connection) => connection.Features.Get<ITlsConnectionFeature>() is not null;
}
