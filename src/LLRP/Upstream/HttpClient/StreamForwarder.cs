using System.Buffers;
using System.Diagnostics;
using System.Net;
using System.Runtime.CompilerServices;
using LLRP.ClientSide;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Http1.Transforms;
using LLRP.Tasks;
using LLRP.Upstream.Http2Client;
using LLRP.Upstream.Sockets;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Carries one request stream of an HTTP/2 client (an <see cref="HttpContext"/> of Kestrel's HTTP/2 server) over
/// HttpClient, in every mode:
/// 1. <see cref="Add"/> fills an <see cref="HttpRequestMessage"/> from the request's head with the
///    <see cref="RequestRewriter"/>'s target and fields (the HTTP/1.1 front end's rules), its body streamed as it arrives
///    (<see cref="StreamRequestContent"/>);
/// 2. <see cref="ForwardAsync"/> sends it, the cluster's response headers timeout running until the head is in, and the
///    client's reset cancelling it at any time;
/// 3. the response head is validated with raw mode's rules (<see cref="ResponseMessageHead"/>) and its fields pass
///    <see cref="ResponseHeadWriter.WriteFields"/>; the body is flushed to the client as it comes, then the trailers.
/// In raw mode with pooled connections, a request for an HTTP/1.1 destination sending no PROXY protocol header (a pooled
/// connection is no one client's) goes over raw mode's own pooled connections instead (<see cref="PooledStreamExchange"/>,
/// which relays trailers both ways, so <c>te: trailers</c> is kept), its response head given to the client by the same rules.
/// A request to a destination sending the PROXY protocol goes over that exchange in raw mode with either strategy, on a
/// connection of its own that starts with the header of the stream's client (HttpClient's shared connections can carry
/// no one client's header).
/// In raw mode with <c>http2.client</c> <c>llrp</c>, a request for a destination its cluster asks HTTP/2 of (h2c by prior
/// knowledge, h2 by ALPN) goes over raw mode's own HTTP/2 client instead (<see cref="Http2StreamExchange"/>), by the same
/// steps; one whose <c>https</c> destination chose <c>http/1.1</c> where the cluster lets it goes over raw mode's pooled
/// HTTP/1.1 connections (<see cref="PooledStreamExchange"/>), whose TLS rules are the destination's, as the own client's are.
/// Failures are returned: before the response started the front end answers them, after it the stream is reset.
/// Reused stream after stream (<see cref="Begin"/> … <see cref="End"/>), so its caches (field strings, target URI,
/// method) and buffers serve the next stream as a connection's forwarder serves its next request.
/// </summary>
/// <param name="invoker">The HttpClient end every HTTP/2 client shares.</param>
/// <param name="maxResponseHeadSize">The most bytes a destination's response head may take.</param>
/// <param name="pooled">Raw mode's exchange over its pooled HTTP/1.1 connections; null in the other modes.</param>
/// <param name="http2">Raw mode's exchange over its own HTTP/2 connections; null unless <c>http2.client</c> is <c>llrp</c>.</param>
internal sealed class StreamForwarder(HttpMessageInvoker invoker, int maxResponseHeadSize, PooledStreamExchange? pooled = null, Http2StreamExchange? http2 = null)
    : IRequestForwarder, IRoutedResponse
{
    private const int ResponseBufferSize = 16 * 1024;

    private readonly FieldStringCache _strings = new();
    private readonly FieldStringCache _responseStrings = new();
    private readonly TargetUriCache _uris = new();
    private readonly ArrayBufferWriter<byte> _target = new(256);
    private readonly RenderedResponseHead _responseHead = new();
    private HttpContext? _context;
    private RequestRewriter? _rewriter;
    private CancellationTokenSource _timeout = new();
    private DestinationEndpoint? _destination;
    private TimeSpan _responseHeadersTimeout;
    private HttpRequestMessage? _message;
    private MethodCache _methods;
    private bool _isHead;
    private long _destinationChosen;
    private RequestHead? _pooledHead;
    private IStreamExchange? _exchange;
    private Http2Carriage _carriage;
    private Action<long>? _counted;

    public ForwarderTraits Traits => ForwarderTraits.HttpClient;

    /// <summary>The HTTP version asked of the batch's destination, and how strictly (its cluster's <c>HttpRequest</c>).</summary>
    private (Version Version, HttpVersionPolicy Policy) _version = (HttpVersion.Version11, HttpVersionPolicy.RequestVersionExact);

    /// <summary>The batch's cluster may be asked HTTP/2 (<see cref="ClusterOptions.AsksHttp2"/>): not for raw mode's pooled connections.</summary>
    private bool _asksHttp2;

    public ResponseTransforms Transforms { private get; set; } = ResponseTransforms.None;

    public byte[] AffinityLine { private get; set; } = [];

    /// <summary>The status of the last response forwarded, for the metrics.</summary>
    public int Status { get; private set; }

    /// <summary>Bytes of the last response's body relayed to the client, for the access log.</summary>
    public long BodyBytes { get; private set; }

    /// <summary>Adds a read's bytes to <see cref="BodyBytes"/>: one delegate for the forwarder's life.</summary>
    private Action<long> Counted => _counted ??= count => BodyBytes += count;

    /// <summary>Milliseconds from the last destination's choice to its response head, for the access log; -1 when none answered.</summary>
    public long UpstreamMilliseconds { get; private set; } = -1;

    /// <summary>Takes a request stream: the forwarder carries its requests until <see cref="End"/>.</summary>
    /// <param name="context">The request stream.</param>
    /// <param name="rewriter">The forwarding rules, pointed at the destination by the routing.</param>
    public void Begin(HttpContext context, RequestRewriter rewriter)
    {
        (_context, _rewriter) = (context, rewriter);
        Transforms = ResponseTransforms.None;
        AffinityLine = [];
        Status = 0;
        BodyBytes = 0;
        UpstreamMilliseconds = -1;
    }

    /// <summary>Lets go of the stream <see cref="Begin"/> took, ready for another.</summary>
    public void End()
    {
        _message?.Dispose();
        (_message, _context, _rewriter, _destination) = (null, null, null, null);
        ResetTimeout();
    }

    /// <summary>Makes the response headers timeout's source ready for another wait, a cancelled one replaced.</summary>
    private void ResetTimeout()
    {
        if (!_timeout.TryReset())
        {
            _timeout.Dispose();
            _timeout = new CancellationTokenSource();
        }
    }

    private HttpContext Context => _context ?? throw new InvalidOperationException($"{nameof(Begin)} comes before forwarding.");

    public ValueTask<ForwarderError> BeginBatchAsync(DestinationEndpoint destination, ClusterOptions cluster)
    {
        _destination = destination;
        _destinationChosen = Stopwatch.GetTimestamp();
        _responseHeadersTimeout = cluster.ResponseHeadersTimeout;
        _version = (cluster.HttpVersion, cluster.VersionPolicy);
        _asksHttp2 = cluster.AsksHttp2;
        _carriage = http2?.Carriage(cluster, destination) ?? Http2Carriage.Elsewhere;
        if (_carriage is Http2Carriage.Http2 or Http2Carriage.Http2OrHttp11)
        {
            http2!.OffersHttp11 = _carriage == Http2Carriage.Http2OrHttp11;
        }

        _uris.Retarget(destination);
        return ValueTask.FromResult(ForwarderError.None);
    }

    public void Add(RequestHead head, in ReadOnlySequence<byte> message, int headLength, long bodyLength, BodyKind body)
    {
        _message?.Dispose();
        _message = null;
        _isHead = head.IsHeadMethod;
        // A cluster sending the PROXY protocol is at HTTP/1.x (ProxyOptionsReader refuses it when it asks HTTP/2).
        _exchange = pooled is not null && (_destination!.ProxyProtocol != ProxyProtocolVersion.None || (pooled.SharesConnections && !_asksHttp2) || _carriage == Http2Carriage.Http11) ? pooled
            : _carriage is Http2Carriage.Http2 or Http2Carriage.Http2OrHttp11 ? http2 : null;
        _pooledHead = _exchange is null ? null : head;
        if (_pooledHead is null)
        {
            _message = NewMessage(head, body);
        }
    }

    /// <summary>The request as an <see cref="HttpRequestMessage"/> for HttpClient: the rewriter's target and fields, the body streamed as it arrives.</summary>
    private HttpRequestMessage NewMessage(RequestHead head, BodyKind body)
    {
        var context = Context;
        var rewriter = _rewriter!;
        var request = new HttpRequestMessage
        {
            Method = _methods.Get(head.Method),
            RequestUri = _uris.Get(rewriter.RenderTarget(head, _target)),
            Version = _version.Version,
            VersionPolicy = _version.Policy,
        };
        if (body != BodyKind.None)
        {
            request.Content = new StreamRequestContent(context.Request.Body, context.RequestAborted);
            request.Content.Headers.ContentLength = head.Framing == BodyFraming.ContentLength ? head.ContentLength : null;
        }

        var fields = new MessageFieldSink(request, _strings, _destination!.Authority, static () => new ByteArrayContent([]));
        rewriter.WriteFields(head, ref fields);
        return request;
    }

    public ValueTask<ForwardResult> ForwardAsync(ClientRequestBody? body)
        => _pooledHead is not { } head ? ForwardOverHttpClientAsync()
            : _exchange == http2 && http2!.OffersHttp11 ? ForwardOrFallBackAsync(head)
            : ForwardPooledAsync(_exchange!, head);

    /// <summary>
    /// Over raw mode's own HTTP/2 client to an <c>https</c> destination whose cluster lets HTTP/2 fall back: when the
    /// destination chose <c>http/1.1</c> by ALPN (the stream failed before anything was sent), over raw mode's pooled
    /// HTTP/1.1 connections, as the streams after (<see cref="Http2Carriage.Http11"/>).
    /// </summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<ForwardResult> ForwardOrFallBackAsync(RequestHead head)
    {
        var result = await ForwardPooledAsync(http2!, head);
        if (result.Started || result.Error != ForwarderError.TlsHandshakeFailed || !http2!.FellBackToHttp11(_destination!))
        {
            return result;
        }

        // The response headers timeout starts again: the time the h2 attempt's connect and handshake took is not the destination's answer's.
        ResetTimeout();
        _exchange = pooled!;
        return await ForwardPooledAsync(pooled!, head);
    }

    private async ValueTask<ForwardResult> ForwardOverHttpClientAsync()
    {
        var message = _message!;
        var clientAborted = Context.RequestAborted;
        var timeout = _timeout;
        using var aborted = clientAborted.UnsafeRegister(static source => ((CancellationTokenSource)source!).Cancel(), timeout);
        timeout.CancelAfter(_responseHeadersTimeout);
        HttpResponseMessage response;
        try
        {
            response = await invoker.SendAsync(message, timeout.Token);
        }
        catch (Exception e)
        {
            return ForwardResult.Failed(0, clientAborted.IsCancellationRequested ? ForwarderError.ClientAborted : UpstreamFailures.Classify(e), started: false);
        }

        using (response)
        {
            timeout.CancelAfter(Timeout.InfiniteTimeSpan);
            UpstreamMilliseconds = (long)Stopwatch.GetElapsedTime(_destinationChosen).TotalMilliseconds;
            return await RelayAsync(response, clientAborted);
        }
    }

    private async ValueTask<ForwardResult> RelayAsync(HttpResponseMessage response, CancellationToken clientAborted)
    {
        ResponseHead head;
        try
        {
            head = ResponseMessageHead.Parse(response, _responseHead, maxResponseHeadSize);
        }
        catch (HttpMessageException)
        {
            return ForwardResult.Failed(0, ForwarderError.InvalidResponse, started: false);
        }

        if (head.IsInterim)
        {
            // No upgrade is asked over HTTP/2 (RFC 9113 §8.6): a 1xx that HttpClient returns is one no client asked for.
            return ForwardResult.Failed(0, ForwarderError.InvalidResponse, started: false);
        }

        var client = Context.Response;
        var hasBody = Start(head, client);
        if (hasBody && await ResponseBodyCopy.CopyAsync(
                await response.Content.ReadAsStreamAsync(clientAborted),
                new StreamResponseBodySink(client.BodyWriter, Counted, clientAborted),
                ResponseBufferSize,
                clientAborted) is var error and not ForwarderError.None)
        {
            return await HeadSentThenFailedAsync(client, error);
        }

        // HTTP/1.1 carries trailers only after a chunked body (RFC 9112 §7.1.2); asking HttpClient for none makes an empty set.
        var mayHaveTrailers = response.Version.Major >= 2 || head.Framing == BodyFraming.Chunked;
        if (mayHaveTrailers && response.TrailingHeaders.NonValidated.Count > 0 && client.SupportsTrailers())
        {
            foreach (var (name, values) in response.TrailingHeaders.NonValidated)
            {
                foreach (var value in values)
                {
                    if (TrailerFields.MayRelay(name, value))
                    {
                        client.AppendTrailer(name, value);
                    }
                }
            }
        }

        return new ForwardResult(1, ForwarderError.None, Started: true, CloseClient: false);
    }

    /// <summary>
    /// Sends the request over raw mode's own client (<see cref="PooledStreamExchange"/>, <see cref="Http2StreamExchange"/>), the
    /// cluster's response headers timeout running until the head is in and the client's reset cancelling it at any time,
    /// then relays the response; the exchange is ended (its connection returned or closed) on every way out.
    /// </summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<ForwardResult> ForwardPooledAsync(IStreamExchange exchange, RequestHead head)
    {
        var context = Context;
        var clientAborted = context.RequestAborted;
        var timeout = _timeout;
        var completed = false;
        // LLRP's own HTTP/2 server keeps the timeout on its connection's heartbeat and expires it on the client's reset;
        // another server's stream takes a timer and a registration with its abort token.
        var wait = context.Features[typeof(IResponseHeadWaitFeature)] is IResponseHeadWaitFeature feature
            && feature.BeginResponseHeadWait(Environment.TickCount64 + (long)_responseHeadersTimeout.TotalMilliseconds, timeout) ? feature : null;
        using var aborted = wait is null ? clientAborted.UnsafeRegister(static source => ((CancellationTokenSource)source!).Cancel(), timeout) : default;
        if (wait is null)
        {
            timeout.CancelAfter(_responseHeadersTimeout);
        }

        try
        {
            var body = head.Framing == BodyFraming.None ? null : context.Request.BodyReader;
            var trailers = body is null ? null : context.Features.Get<IHttpRequestTrailersFeature>();
            var (from, to) = _destination!.ProxyProtocol == ProxyProtocolVersion.None ? (null, null) : EndPointsOf(context.Connection);
            var error = await exchange.SendAsync(_destination, head, _rewriter!, body, trailers, from, to, timeout.Token);
            EndResponseHeadWait(wait);
            wait = null;
            if (error != ForwarderError.None)
            {
                return ForwardResult.Failed(0, clientAborted.IsCancellationRequested ? ForwarderError.ClientAborted : error, started: false);
            }

            UpstreamMilliseconds = (long)Stopwatch.GetElapsedTime(_destinationChosen).TotalMilliseconds;
            var client = context.Response;
            var hasBody = Start(exchange.Response, client);
            var responseTrailers = context.Features[typeof(IHttpResponseTrailersFeature)] is IHttpResponseTrailersFeature { Trailers: { IsReadOnly: false } clientTrailers }
                ? clientTrailers : null;
            if (await exchange.CopyBodyAsync(client.BodyWriter, responseTrailers, hasBody, Counted, clientAborted) is var bodyError
                and not ForwarderError.None)
            {
                return await HeadSentThenFailedAsync(client, bodyError);
            }

            completed = true;
            return new ForwardResult(1, ForwarderError.None, Started: true, CloseClient: false);
        }
        finally
        {
            if (wait is not null)
            {
                EndResponseHeadWait(wait);
            }

            await exchange.EndAsync(completed);
        }
    }

    /// <summary>The response head came (or the exchange failed): the timeout stops; a source the stream expired meanwhile is not used again.</summary>
    private void EndResponseHeadWait(IResponseHeadWaitFeature? wait)
    {
        if (wait is null)
        {
            _timeout.CancelAfter(Timeout.InfiniteTimeSpan);
        }
        else if (!wait.EndResponseHeadWait())
        {
            // Cancelled by the stream, now or about to be: left to it, not disposed under its Cancel.
            _timeout = new CancellationTokenSource();
        }
    }

    /// <summary>
    /// Gives the client the response's status and fields (<see cref="ResponseHeadWriter.WriteFields"/>, the HTTP/1.1
    /// front end's rules, then the affinity's binding) and its length when the destination sent one: as bytes to LLRP's
    /// own HTTP/2 server (<see cref="IResponseFieldLinesFeature"/>), as strings to another.
    /// </summary>
    /// <returns>True when the response has a body for this request (RFC 9112 §6.3).</returns>
    private bool Start(ResponseHead head, HttpResponse client)
    {
        Status = head.StatusCode;
        var hasLength = head.Framing == BodyFraming.ContentLength && head.StatusCode != 204;
        // The indexer, a plain interface call, where Get<T> is a generic virtual one, resolved by a runtime lookup each time.
        if (Context.Features[typeof(IResponseFieldLinesFeature)] is IResponseFieldLinesFeature fieldLines)
        {
            var lines = fieldLines.StartFieldLines(head.StatusCode);
            ResponseHeadWriter.WriteFields(head, Transforms, ref lines);
            FieldLine.Split(AffinityLine, ref lines);
            if (hasLength)
            {
                lines.ContentLength(head.ContentLength);
            }
        }
        else
        {
            client.StatusCode = head.StatusCode;
            var sink = new HeaderDictionarySink(client.Headers, _responseStrings);
            ResponseHeadWriter.WriteFields(head, Transforms, ref sink);
            FieldLine.Split(AffinityLine, ref sink);
            if (hasLength)
            {
                client.ContentLength = head.ContentLength;
            }
        }

        return !ResponseFraming.IsBodiless(head.StatusCode, _isHead);
    }

    /// <summary>
    /// The destination failed mid-body (or the client went): when none of the response had reached the client yet, the
    /// destination's head still goes out before the front end resets the stream, so the client sees the status the
    /// destination sent whether the failure came in the same read as the head or later (as an HTTP/1.1 client sees the
    /// head before the connection ends).
    /// </summary>
    private static async ValueTask<ForwardResult> HeadSentThenFailedAsync(HttpResponse client, ForwarderError error)
    {
        if (error == ForwarderError.ResponseBodyFailed && !client.HasStarted)
        {
            try
            {
                await client.StartAsync();
            }
            catch (Exception e) when (e is IOException or OperationCanceledException or ObjectDisposedException)
            {
                // The client's stream ended meanwhile: the reset that follows finds it gone.
            }
        }

        return ForwardResult.Failed(0, error, started: true);
    }

    public ValueTask DisposeAsync()
    {
        End();
        _timeout.Dispose();
        return default;
    }

    /// <summary>The stream's client address and the address it connected to, as a PROXY protocol header carries them.</summary>
    private static (IPEndPoint? Client, IPEndPoint? Local) EndPointsOf(ConnectionInfo connection)
        => (connection.RemoteIpAddress is { } remote ? new IPEndPoint(remote, connection.RemotePort) : null,
            connection.LocalIpAddress is { } address ? new IPEndPoint(address, connection.LocalPort) : null);
}
