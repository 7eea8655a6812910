using System.Buffers;
using System.IO.Pipelines;
using System.Net;
using System.Runtime.CompilerServices;
using System.Threading.Tasks.Sources;
using LLRP.ClientSide;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Tasks;
using LLRP.Upstream.HttpClient;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// Raw mode's exchange for an HTTP/2 request stream bound for an HTTP/1.1 destination: over a connection of the shared
/// pool (<see cref="UpstreamSession"/>), the stream's head goes upstream as the <see cref="RequestRewriter"/> re-emits it
/// (as the HTTP/1.1 front end's requests do), its body is streamed as it arrives, in the head's framing (Content-Length
/// as is, or chunked and ended by the stream's trailers), and the response head is read and parsed by
/// <see cref="ResponseHeadParser"/> within the response headers timeout; interim responses are dropped (Kestrel's server
/// cannot send one of the application's own; an HTTP/2 client's <c>100-continue</c> is Kestrel's). The body is then
/// decoded (RFC 9112 §6.3) and given to the client's output, flushed before each wait for more, and a chunked body's
/// trailer section becomes the client's trailers (<see cref="TrailerFields"/> say which). The connection goes back
/// to the pool only after a whole response to a whole request. Used by one request stream at a time.
/// A destination whose cluster sends the PROXY protocol gets a connection of the stream's own, opened with the header of
/// the stream's client (<see cref="UpstreamSession.SpeakFor"/>) and closed when the stream ends: the header speaks for one
/// client connection, and streams of other clients follow on this exchange (with either strategy).
/// With <c>pool.pipelineDepth</c> above 1, a request without a body whose method is idempotent may go behind another
/// stream's on its connection (<see cref="ResponseLine"/>): the exchange then reads its response head once the connection
/// comes to it, or stops waiting at its response headers timeout or its client's reset.
/// </summary>
/// <param name="upstream">The pooled session connections are rented from and returned to.</param>
/// <param name="maxResponseHeadSize">The most bytes a destination's response head may take.</param>
/// <param name="chunkLimits">The chunk line and trailer limits of a chunked response.</param>
/// <param name="pipelineDepth">The most requests a connection carries back to back (<see cref="ResponseLine"/>); 1 for none.</param>
internal sealed class PooledStreamExchange(UpstreamSession upstream, int maxResponseHeadSize, BodyLimits chunkLimits, int pipelineDepth)
    : IStreamExchange, IValueTaskSource<ForwarderError>
{
    /// <summary>
    /// Whether HTTP/2 streams to HTTP/1.1 clusters take this exchange: in raw mode with pooled connections (a stream has
    /// no client connection to hold one upstream connection for), never in the modes over HttpClient.
    /// </summary>
    public static bool Serves(ProxyOptions options) => options.Mode == ProxyMode.Raw && options.ConnectionStrategy == UpstreamConnectionStrategy.Pooled;

    /// <summary>Whether it serves every HTTP/1.1 destination's streams (<see cref="Serves"/>), or only those of destinations sending the PROXY protocol.</summary>
    public bool SharesConnections => upstream.SharesConnections;

    private readonly ResponseHead _response = new();
    private readonly TrailerSectionReader _trailers = new(chunkLimits.MaxTrailerSize);
    private readonly FieldStringCache _trailerStrings = new();
    private ValueTask<bool> _pump;
    private PipeReader? _body;
    private ReadOnlySequence<byte> _afterHead;
    private bool _completed;
    private bool _bodiless;
    private bool _receivedAny;

    /// <summary>The stream's wait for the response head on the fast path of <see cref="SendAsync"/>; completed inline.</summary>
    private ManualResetValueTaskSourceCore<ForwarderError> _headWait;
    private ValueTaskAwaiter<ReadResult> _read;
    private ValueTaskAwaiter<ForwarderError> _repeat;
    private Action? _onHeadRead;
    private Action? _onRepeated;
    private DestinationEndpoint? _destination;
    private RequestHead? _head;
    private RequestRewriter? _rewriter;
    private CancellationToken _timeout;

    /// <summary>The line the exchange joined behind another exchange's request, until it ends.</summary>
    private ResponseLine? _line;
    /// <summary>The response headers timeout's hold on a wait for the turn.</summary>
    private CancellationTokenRegistration _turnWait;

    /// <summary>The response head <see cref="SendAsync"/> read.</summary>
    public ResponseHead Response => _response;

    /// <summary>Where the exchange stands in the line it joined last; set under the line's lock.</summary>
    public LinePlace Place { get; set; }

    /// <summary>The request written is flushed to the connection (or the flush failed): the output takes another's.</summary>
    public bool HasFlushed => _pump.IsCompleted;

    /// <summary>How many lines the exchange joined: tells its entry in a line from an entry it left there before.</summary>
    public int Ticket { get; private set; }

    /// <summary>
    /// Writes the request head on a connection to <paramref name="destination"/>, starts streaming its body from
    /// <paramref name="body"/> (null for none), and reads the response head until a whole final one is parsed into
    /// <see cref="_response"/>. A request without a body that may be repeated (RFC 9110 §9.2.2), sent on a pooled
    /// connection that had answered before and closed without a byte of answer (the destination let it go meanwhile,
    /// RFC 9112 §9.3.1), is written once more on a new connection, as raw mode's HTTP/1.1 forwarder does.
    /// A request on a connection at hand (a pooled one, as most are) waits for its head through the exchange itself, the
    /// read's continuation (<see cref="OnHeadRead"/>) completing the stream's wait: no async method between, so the
    /// destination's answer resumes one state machine fewer (its box, the copy of its state and its resumption). A
    /// connection still to be made, and the repeat, go through <see cref="SendSlowAsync"/>.
    /// </summary>
    /// <param name="bodyTrailers">The request's trailers, read once its body ended: they end a chunked body (RFC 9112 §7.1.2).</param>
    /// <param name="client">The stream's client address, which a PROXY protocol header carries; null for a destination sending none.</param>
    /// <param name="local">The address the stream's client connected to, the header's destination address.</param>
    /// <param name="timeout">Cancelled when the response headers timeout passes or the client resets its stream.</param>
    public ValueTask<ForwarderError> SendAsync(
        DestinationEndpoint destination, RequestHead head, RequestRewriter rewriter, PipeReader? body, IHttpRequestTrailersFeature? bodyTrailers,
        EndPoint? client, EndPoint? local, CancellationToken timeout)
    {
        upstream.SpeakFor(client, local);
        (_destination, _head, _rewriter, _timeout) = (destination, head, rewriter, timeout);
        var pipelined = pipelineDepth > 1 && body is null && head.IsIdempotent && upstream.SharesConnections
            && destination.ProxyProtocol == ProxyProtocolVersion.None;
        if (pipelined && ResponseLine.TryJoin(destination, this, ++Ticket) is { } line)
        {
            return Follow(line);
        }

        var ensured = upstream.EnsureAsync(destination);
        if (!ensured.IsCompletedSuccessfully)
        {
            return SendSlowAsync(ensured, body, bodyTrailers, resent: false);
        }

        if (ensured.Result is var error and not ForwarderError.None)
        {
            return ValueTask.FromResult(error);
        }

        Send(head, rewriter, body, bodyTrailers);
        if (pipelined)
        {
            ResponseLine.Open(upstream.Connection, pipelineDepth, this);
        }

        _headWait.Reset();
        if (ReadHead(out var answered))
        {
            return Repeats(answered, resent: false, body, head) ? RepeatAsync() : ValueTask.FromResult(answered);
        }

        return new ValueTask<ForwarderError>(this, _headWait.Version);
    }

    /// <summary>
    /// <see cref="SendAsync"/> as an async method, for the request <see cref="SendAsync"/> kept (<see cref="_head"/> and the
    /// fields beside it): the connection still to be made, or the request written again (<see cref="RepeatAsync"/>).
    /// </summary>
    /// <param name="ensured">The connection's making, started.</param>
    /// <param name="resent">The request was written once already: it is not repeated again.</param>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<ForwarderError> SendSlowAsync(
        ValueTask<ForwarderError> ensured, PipeReader? body, IHttpRequestTrailersFeature? bodyTrailers, bool resent)
    {
        if (await ensured is var error and not ForwarderError.None)
        {
            return error;
        }

        var head = _head!;
        Send(head, _rewriter!, body, bodyTrailers);
        var input = upstream.Connection.Input;
        ForwarderError answered;
        while (true)
        {
            ReadResult result;
            try
            {
                result = await input.ReadAsync(_timeout);
            }
            catch (Exception e) when (Failed(e, out answered))
            {
                break;
            }

            if (TryTakeHead(input, result, out answered))
            {
                break;
            }
        }

        return Repeats(answered, resent, body, head) ? await RepeatAsync() : answered;
    }

    /// <summary>
    /// Writes the request behind those already on <paramref name="connection"/>'s line; the stream waits for its turn
    /// (<see cref="TakeTurn"/>), or until its timeout or its client's reset (<see cref="StopWaiting"/>).
    /// </summary>
    private ValueTask<ForwarderError> Follow(UpstreamConnection connection)
    {
        upstream.Adopt(connection);
        _line = connection.Line;
        _headWait.Reset();
        Send(_head!, _rewriter!, body: null, bodyTrailers: null);
        _turnWait = _timeout.UnsafeRegister(static state => ((PooledStreamExchange)state!).StopWaiting(), this);
        return new ValueTask<ForwarderError>(this, _headWait.Version);
    }

    /// <summary>The response headers timeout passed, or the client reset its stream, before the exchange's turn.</summary>
    private void StopWaiting()
    {
        if (_line!.Abandon(this))
        {
            _headWait.SetResult(ForwarderError.ResponseTimeout);
        }
    }

    /// <summary>
    /// The connection comes to the exchange, which reads its response head; or, when it cannot (<paramref name="open"/>
    /// false), the request goes once more on another connection.
    /// </summary>
    public void TakeTurn(bool open)
    {
        if (!open)
        {
            Answer(ForwarderError.UpstreamClosed, lost: true);
            return;
        }

        ForwarderError answered;
        try
        {
            if (!ReadHead(out answered))
            {
                return;
            }
        }
        catch (Exception e)
        {
            _headWait.SetException(e);
            return;
        }

        Answer(answered, lost: false);
    }

    /// <summary>Writes the request head on <see cref="UpstreamSession.Connection"/> and starts the body's pump (or the head's flush).</summary>
    private void Send(RequestHead head, RequestRewriter rewriter, PipeReader? body, IHttpRequestTrailersFeature? bodyTrailers)
    {
        var connection = upstream.Connection;
        var writer = new BufferWriter<PipeWriterAdapter>(new PipeWriterAdapter(connection.Output), head.Source.Length + rewriter.Overhead);
        rewriter.WriteHead(ref writer, head);
        writer.Commit();
        _body = body;
        _receivedAny = false;
        _pump = body is null ? RequestBodyPump.FlushAsync(connection.Output) : PumpAsync(body, bodyTrailers, connection, head.Framing == BodyFraming.Chunked);
    }

    /// <summary>Reads the response head on: true with the answer once decided, false while a read waits (<see cref="OnHeadRead"/> then goes on).</summary>
    private bool ReadHead(out ForwarderError answered)
    {
        var input = upstream.Connection.Input;
        while (true)
        {
            ValueTaskAwaiter<ReadResult> read;
            try
            {
                read = input.ReadAsync(_timeout).GetAwaiter();
            }
            catch (Exception e) when (Failed(e, out answered))
            {
                return true;
            }

            if (!read.IsCompleted)
            {
                _read = read;
                read.UnsafeOnCompleted(_onHeadRead ??= OnHeadRead);
                answered = default;
                return false;
            }

            if (TakeFrom(input, read, out answered))
            {
                return true;
            }
        }
    }

    /// <summary>A read of the response head completed: the head is taken (or read on), and the stream's wait completes.</summary>
    private void OnHeadRead()
    {
        var read = _read;
        _read = default;
        ForwarderError answered;
        try
        {
            if (!TakeFrom(upstream.Connection.Input, read, out answered) && !ReadHead(out answered))
            {
                return;
            }
        }
        catch (Exception e)
        {
            _headWait.SetException(e);
            return;
        }

        Answer(answered, lost: false);
    }

    /// <summary>
    /// The stream's wait completes with <paramref name="answered"/>, or with the answer to the request written again
    /// (<see cref="RepeatAsync"/>): when <see cref="Repeats"/> says so, or when its line was <paramref name="lost"/>.
    /// </summary>
    private void Answer(ForwarderError answered, bool lost)
    {
        if (!lost && !Repeats(answered, resent: false, _body, _head!))
        {
            _headWait.SetResult(answered);
            return;
        }

        _repeat = RepeatAsync().GetAwaiter();
        if (_repeat.IsCompleted)
        {
            OnRepeated();
        }
        else
        {
            _repeat.UnsafeOnCompleted(_onRepeated ??= OnRepeated);
        }
    }

    /// <summary>The request written again (<see cref="RepeatAsync"/>) has its answer: the stream's wait completes with it.</summary>
    private void OnRepeated()
    {
        var repeat = _repeat;
        _repeat = default;
        ForwarderError answered;
        try
        {
            answered = repeat.GetResult();
        }
        catch (Exception e)
        {
            _headWait.SetException(e);
            return;
        }

        _headWait.SetResult(answered);
    }

    /// <summary>The request (one without a body, <see cref="Repeats"/>) once more, on a new connection.</summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<ForwarderError> RepeatAsync()
    {
        await EndAsync(completed: false);
        return await SendSlowAsync(upstream.EnsureAsync(_destination!), body: null, bodyTrailers: null, resent: true);
    }

    /// <summary>
    /// The request goes once more on a new connection: a pooled connection that had answered before closed without a byte
    /// of answer, and the request, without a body, may be repeated (RFC 9110 §9.2.2, RFC 9112 §9.3.1), once.
    /// </summary>
    private bool Repeats(ForwarderError answered, bool resent, PipeReader? body, RequestHead head)
        => answered == ForwarderError.UpstreamClosed && !resent && body is null && head.IsIdempotent && upstream.Connection.CompletedResponses > 0;

    /// <summary>What a failed read of the response head answers: the timeout (or the client's reset), or the destination gone.</summary>
    private bool Failed(Exception e, out ForwarderError answered)
    {
        answered = e is OperationCanceledException ? ForwarderError.ResponseTimeout : DestinationEnded;
        return e is OperationCanceledException || ClientResponseWriter.IsConnectionFailure(e);
    }

    /// <summary>
    /// What the destination's end before a whole response head answers: a head begun and cut, or nothing at all (which a
    /// request that may be repeated is, <see cref="Repeats"/>).
    /// </summary>
    private ForwarderError DestinationEnded => _receivedAny ? ForwarderError.InvalidResponse : ForwarderError.UpstreamClosed;

    /// <summary>One completed read of the response head (<see cref="TryTakeHead"/>), its failure answered by <see cref="Failed"/>.</summary>
    private bool TakeFrom(PipeReader input, ValueTaskAwaiter<ReadResult> read, out ForwarderError answered)
    {
        ReadResult result;
        try
        {
            result = read.GetResult();
        }
        catch (Exception e) when (Failed(e, out answered))
        {
            return true;
        }

        return TryTakeHead(input, result, out answered);
    }

    ForwarderError IValueTaskSource<ForwarderError>.GetResult(short token) => _headWait.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<ForwarderError>.GetStatus(short token) => _headWait.GetStatus(token);

    void IValueTaskSource<ForwarderError>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _headWait.OnCompleted(continuation, state, token, flags);

    /// <summary>
    /// Relays the response body to <paramref name="output"/>, starting with what came with the head, then the trailer
    /// section of a chunked body to <paramref name="trailers"/> (null when the client takes none: it is then dropped, as
    /// RFC 9110 §6.5.1 allows). The head's bytes stay in the connection's input until this starts, so the response head
    /// stays readable until its fields were given to the client. A body that came whole with its head goes to an output that
    /// takes it at once (<see cref="IWholeBodyWriter"/>) in one piece.
    /// </summary>
    /// <param name="hasBody">The response has a body for this request (RFC 9112 §6.3: none for HEAD, 1xx, 204, 304).</param>
    /// <param name="written">Counts the body bytes given to the client.</param>
    /// <returns>None; ResponseBodyFailed when the destination failed before its end; ClientAborted when the client reset its stream.</returns>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public async ValueTask<ForwarderError> CopyBodyAsync(
        PipeWriter output, IHeaderDictionary? trailers, bool hasBody, Action<long> written, CancellationToken clientAborted)
    {
        var input = upstream.Connection.Input;
        var (data, completed) = (_afterHead, _completed);
        _afterHead = default;
        _bodiless = !hasBody;
        if (_bodiless)
        {
            input.AdvanceTo(data.Start);
            return ForwarderError.None;
        }

        var framing = _response.Framing;
        if (framing == BodyFraming.ContentLength && data.Length >= _response.ContentLength && output is IWholeBodyWriter whole
            && whole.TryWriteWhole(data.Slice(0, _response.ContentLength)))
        {
            written(_response.ContentLength);
            input.AdvanceTo(data.GetPosition(_response.ContentLength));
            return ForwarderError.None;
        }

        var decoder = new ChunkedDecoder(chunkLimits.MaxChunkLineSize, chunkLimits.MaxTrailerSize, yieldsTrailerSection: true);
        var inTrailers = false;
        var remaining = framing == BodyFraming.ContentLength ? _response.ContentLength : long.MaxValue;
        while (true)
        {
            bool done;
            try
            {
                if (framing != BodyFraming.Chunked)
                {
                    done = Copy(ref data, ref remaining, output, written);
                }
                else
                {
                    inTrailers = inTrailers || Decode(ref decoder, ref data, output, written);
                    done = inTrailers && TryRelayTrailers(ref data, trailers);
                }
            }
            catch (HttpMessageException)
            {
                input.AdvanceTo(data.Start);
                return ForwarderError.ResponseBodyFailed;
            }

            if (done || (completed && framing == BodyFraming.CloseDelimited))
            {
                input.AdvanceTo(data.Start);
                return ForwarderError.None;
            }

            input.AdvanceTo(data.Start, data.End);
            if (completed)
            {
                return ForwarderError.ResponseBodyFailed;
            }

            try
            {
                if ((await output.FlushAsync(clientAborted)).IsCanceled)
                {
                    return ForwarderError.ClientAborted;
                }

                var result = await input.ReadAsync(clientAborted);
                (data, completed) = (result.Buffer, result.IsCompleted);
            }
            catch (Exception e) when (e is OperationCanceledException || ClientResponseWriter.IsConnectionFailure(e))
            {
                return clientAborted.IsCancellationRequested ? ForwarderError.ClientAborted : ForwarderError.ResponseBodyFailed;
            }
        }
    }

    /// <summary>
    /// Ends the exchange: the request body's pump is stopped if still running and awaited, and the connection goes back to
    /// the pool when the response was whole, the request body sent to its end and the destination keeps the connection
    /// (a close-delimited body ends only with it); a connection that began with a PROXY protocol header is closed, and so is
    /// every connection with the per-client strategy, where no pool takes it back (a stream has no client connection to hold it).
    /// </summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder))]
    public async ValueTask EndAsync(bool completed)
    {
        if (_line is not null)
        {
            // Waits for a StopWaiting running elsewhere, so the exchange's place is settled.
            _turnWait.Dispose();
            (_turnWait, _line) = (default, null);
            if (Place != LinePlace.Turn)
            {
                // It stopped waiting, or its line was lost: the connection is the exchange's ahead to end.
                _ = upstream.Detach();
                await _pump;
                (_pump, _body) = (default, null);
                return;
            }
        }

        var running = !_pump.IsCompleted;
        if (running)
        {
            upstream.Connection.Abort();
            if (_body is not null)
            {
                ClientBodyRead.Cancel(_body);
            }
        }

        var sent = await _pump;
        (_pump, _body) = (default, null);
        if (completed)
        {
            upstream.Connection.CompletedResponses++;
        }

        var reusable = completed && sent && !running && !upstream.Connection.IsAborted && _response.IsPersistent && (_bodiless || _response.Framing != BodyFraming.CloseDelimited)
            && upstream.Connection.Destination.ProxyProtocol == ProxyProtocolVersion.None && upstream.SharesConnections;
        if (!upstream.HasConnection || upstream.Connection.Line is not { } line)
        {
            upstream.Release(reusable);
            return;
        }

        if (line.PassOn(ref reusable) is { } next)
        {
            _ = upstream.Detach();
            next.TakeTurn(open: true);
            return;
        }

        upstream.Release(reusable);
        while (line.TakeLost() is { } lost)
        {
            lost.TakeTurn(open: false);
        }
    }

    private static bool Copy(ref ReadOnlySequence<byte> data, ref long remaining, PipeWriter output, Action<long> written)
    {
        var take = Math.Min(remaining, data.Length);
        Write(output, data.Slice(0, take), written);
        remaining -= take;
        data = data.Slice(take);
        return remaining == 0;
    }

    /// <summary>Gives the client the chunks' data; true once the last chunk was read and the trailer section starts.</summary>
    private static bool Decode(ref ChunkedDecoder decoder, ref ReadOnlySequence<byte> data, PipeWriter output, Action<long> written)
    {
        while (true)
        {
            var status = decoder.Decode(data, out var consumed, out var chunk);
            data = data.Slice(consumed);
            if (status != ChunkedDecodeStatus.Data)
            {
                return status == ChunkedDecodeStatus.TrailerSection;
            }

            Write(output, chunk, written);
        }
    }

    /// <summary>Reads the trailer section (<see cref="TrailerSectionReader"/>) and adds its fields to <paramref name="trailers"/>; false while it is not all in.</summary>
    private bool TryRelayTrailers(ref ReadOnlySequence<byte> data, IHeaderDictionary? trailers)
    {
        if (!_trailers.TryRead(ref data))
        {
            return false;
        }

        if (trailers is not null)
        {
            var sink = new HeaderDictionarySink(trailers, _trailerStrings);
            _trailers.Relay(ref sink);
        }

        return true;
    }

    private static void Write(PipeWriter output, in ReadOnlySequence<byte> data, Action<long> written)
    {
        foreach (var segment in data)
        {
            output.Write(segment.Span);
        }

        written(data.Length);
    }

    /// <summary>
    /// Parses what <paramref name="input"/> read: true with the outcome once a final response head is parsed into
    /// <see cref="_response"/> (its body's first bytes kept in <see cref="_afterHead"/>, the input not advanced past them)
    /// or the answer cannot become one; false to read on, interim responses dropped.
    /// </summary>
    private bool TryTakeHead(PipeReader input, ReadResult result, out ForwarderError answered)
    {
        var buffer = result.Buffer;
        _receivedAny |= !buffer.IsEmpty;
        answered = ForwarderError.None;
        try
        {
            while (ResponseHeadParser.TryParse(buffer, _response, maxResponseHeadSize, out var headLength))
            {
                if (!_response.IsInterim)
                {
                    (_afterHead, _completed) = (buffer.Slice(headLength), result.IsCompleted);
                    return true;
                }

                buffer = buffer.Slice(headLength);
                if (_response.StatusCode == 101)
                {
                    // No upgrade is asked over HTTP/2 (RFC 9113 §8.6).
                    input.AdvanceTo(buffer.Start);
                    answered = ForwarderError.InvalidResponse;
                    return true;
                }
            }
        }
        catch (HttpMessageException)
        {
            input.AdvanceTo(buffer.Start);
            answered = ForwarderError.InvalidResponse;
            return true;
        }

        input.AdvanceTo(buffer.Start, buffer.End);
        if (result.IsCompleted)
        {
            answered = DestinationEnded;
            return true;
        }

        return false;
    }

    /// <summary>
    /// Streams the request body upstream in its framing, a chunked body ending with the request's trailers that may be
    /// relayed (<see cref="TrailerFields"/>; a body of known length has nowhere to carry them), by raw mode's rule
    /// (<see cref="RequestBodyPump"/>): the output is flushed whenever the next piece is not in yet, and at least every
    /// <see cref="RequestBodyPump.MaxUnflushed"/> bytes, so a body already received leaves with the head in one send;
    /// false when it was not sent whole.
    /// </summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private static async ValueTask<bool> PumpAsync(PipeReader body, IHttpRequestTrailersFeature? trailers, UpstreamConnection connection, bool chunked)
    {
        var output = connection.Output;
        try
        {
            var unflushed = 0L;
            while (true)
            {
                if (!body.TryRead(out var result))
                {
                    if (!await RequestBodyPump.FlushAsync(output))
                    {
                        return false;
                    }

                    unflushed = 0;
                    result = await body.ReadAsync();
                }

                if (result.IsCanceled)
                {
                    return false;
                }

                if (!result.Buffer.IsEmpty)
                {
                    ChunkedEncoding.WriteBodyPiece(output, result.Buffer, chunked);
                    unflushed += result.Buffer.Length;
                }

                body.AdvanceTo(result.Buffer.End);
                if (result.IsCompleted)
                {
                    if (chunked && trailers is { Available: true, Trailers.Count: > 0 })
                    {
                        ChunkedEncoding.WriteLastChunk(output, TrailerFields.Lines(trailers.Trailers).WrittenSpan);
                    }
                    else if (chunked)
                    {
                        ChunkedEncoding.WriteLastChunk(output);
                    }

                    return await RequestBodyPump.FlushAsync(output);
                }

                if (unflushed >= RequestBodyPump.MaxUnflushed)
                {
                    if (!await RequestBodyPump.FlushAsync(output))
                    {
                        return false;
                    }

                    unflushed = 0;
                }
            }
        }
        catch (Exception e) when (e is OperationCanceledException or BadHttpRequestException || ClientResponseWriter.IsConnectionFailure(e))
        {
            // The client reset its stream or sent more than its limit: the destination must not take the request as whole.
            connection.Abort();
            return false;
        }
    }
}
