using System.Buffers;
using System.IO.Pipelines;
using System.Net;
using System.Runtime.CompilerServices;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Http2.Codec;
using LLRP.Tasks;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.Http2Client;

/// <summary>
/// Raw mode's exchange for an HTTP/2 request stream bound for a destination that speaks HTTP/2 (h2c by prior
/// knowledge, h2 by ALPN): on a stream of a shared <see cref="Http2ClientConnection"/>, the head goes as a field block of the
/// <see cref="RequestRewriter"/>'s fields (<see cref="RequestFieldBlock"/>), the body as DATA as it arrives (its
/// trailers ending it), and the response head, checked by RFC 9113 §8's rules while decoded, is validated by raw mode's
/// rules (<see cref="HttpClient.RenderedResponseHead"/>) within the response headers timeout. A stream the destination
/// did not process (REFUSED_STREAM, or above a GOAWAY's last stream id, §8.7) is sent once more when it had no body.
/// The body is then given to the client as DATA arrives, what was read going back to the destination as
/// WINDOW_UPDATE, and the trailers as <see cref="TrailerFields"/> allow. Used by one request stream at a time.
/// </summary>
/// <param name="pool">The HTTP/2 connections, shared by every stream.</param>
/// <param name="maxResponseHeadSize">The most bytes a destination's response head may take.</param>
internal sealed class Http2StreamExchange(Http2ClientPool pool, int maxResponseHeadSize) : IStreamExchange
{
    private const int TrailerScratchSize = 256;

    /// <summary>How many connections may become unusable between a stream's slot and its HEADERS before it gives up.</summary>
    private const int MaxOpenAttempts = 3;

    private readonly Http2ClientStream _stream = new();
    private readonly ArrayBufferWriter<byte> _block = new(1024);
    private readonly ArrayBufferWriter<byte> _target = new(256);
    private Http2ClientConnection? _connection;
    private ValueTask _pump;
    private PipeReader? _body;
    private ResponseHead? _response;

    /// <summary>
    /// How a cluster's streams to <paramref name="destination"/> go: over this client when version 2 is asked as HttpClient
    /// would ask it (<see cref="ClusterOptions.Http2NegotiationWith"/>), connections added as streams fill them, and no PROXY
    /// protocol header is sent (it speaks for one client connection); over HTTP/1.1 while the destination's choice of
    /// <c>http/1.1</c> by ALPN is remembered (<see cref="Http2ClientPool.ChoseHttp11"/>) where the policy lets it fall back.
    /// </summary>
    public Http2Carriage Carriage(ClusterOptions cluster, DestinationEndpoint destination)
    {
        if (!cluster.EnableMultipleHttp2Connections || destination.ProxyProtocol != ProxyProtocolVersion.None)
        {
            return Http2Carriage.Elsewhere;
        }

        return cluster.Http2NegotiationWith(destination.IsTls) switch
        {
            Http2Negotiation.None => Http2Carriage.Elsewhere,
            Http2Negotiation.AlpnH2OrHttp11 => pool.ChoseHttp11(destination) ? Http2Carriage.Http11 : Http2Carriage.Http2OrHttp11,
            _ => Http2Carriage.Http2,
        };
    }

    /// <summary>
    /// The stream's carriage is <see cref="Http2Carriage.Http2OrHttp11"/>: ALPN offers <c>http/1.1</c> after <c>h2</c>.
    /// Set before <see cref="SendAsync"/>.
    /// </summary>
    public bool OffersHttp11 { get; set; }

    /// <summary>The destination chose <c>http/1.1</c> by ALPN where <see cref="OffersHttp11"/> let it: its streams go over HTTP/1.1.</summary>
    public bool FellBackToHttp11(DestinationEndpoint destination) => OffersHttp11 && pool.ChoseHttp11(destination);

    public ResponseHead Response => _response ?? throw new InvalidOperationException($"{nameof(SendAsync)} comes first.");

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public async ValueTask<ForwarderError> SendAsync(
        DestinationEndpoint destination, RequestHead head, RequestRewriter rewriter, PipeReader? body, IHttpRequestTrailersFeature? bodyTrailers,
        EndPoint? client, EndPoint? local, CancellationToken timeout)
    {
        var resent = false;
        var lost = 0;
        while (true)
        {
            var (connection, error) = await pool.AcquireAsync(destination, OffersHttp11);
            if (connection is null)
            {
                return error;
            }

            _stream.Begin();
            _block.ResetWrittenCount();
            var fields = new RequestFieldBlock(_block);
            fields.Begin(head.Method, destination.IsTls, rewriter.RenderTarget(head, _target));
            rewriter.WriteFields(head, ref fields);
            if (head.Framing == BodyFraming.ContentLength)
            {
                fields.ContentLength(head.ContentLength);
            }

            if (!connection.Open(_stream, _block.WrittenSpan, endStream: body is null))
            {
                // Told to go away or ended between the slot and the HEADERS: nothing was sent.
                if (++lost == MaxOpenAttempts)
                {
                    return ForwarderError.UpstreamClosed;
                }

                continue;
            }

            (_connection, _body) = (connection, body);
            _pump = body is null ? default : PumpAsync(connection, body, bodyTrailers);
            ForwarderError arrived;
            using (timeout.UnsafeRegister(static stream => ((Http2ClientStream)stream!).TimeOut(), _stream))
            {
                arrived = await _stream.HeadArrived;
            }

            if (arrived == ForwarderError.ResponseTimeout)
            {
                return arrived;
            }

            if (arrived == ForwarderError.None)
            {
                try
                {
                    _response = _stream.Head.Parse(maxResponseHeadSize);
                    return ForwarderError.None;
                }
                catch (HttpMessageException)
                {
                    return ForwarderError.InvalidResponse;
                }
            }

            if (!_stream.Unprocessed || body is not null || resent)
            {
                return arrived;
            }

            resent = true;
            await EndAsync(completed: false);
        }
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public async ValueTask<ForwarderError> CopyBodyAsync(PipeWriter output, IHeaderDictionary? trailers, bool hasBody, Action<long> written, CancellationToken clientAborted)
    {
        var connection = _connection!;
        var reader = _stream.Body;
        while (true)
        {
            ReadResult result;
            try
            {
                var read = reader.ReadAsync(clientAborted);
                if (!read.IsCompleted && (await output.FlushAsync(clientAborted)).IsCanceled)
                {
                    return ForwarderError.ClientAborted;
                }

                result = await read;
            }
            catch (Exception e) when (e is OperationCanceledException or IOException)
            {
                return clientAborted.IsCancellationRequested ? ForwarderError.ClientAborted : ForwarderError.ResponseBodyFailed;
            }

            var buffer = result.Buffer;
            var length = (int)buffer.Length;
            if (hasBody)
            {
                // A bodiless response's DATA (RFC 9110 §9.3.2, §15.3.5, §15.4.5) is read and dropped.
                foreach (var segment in buffer)
                {
                    output.Write(segment.Span);
                }

                written(length);
            }

            // The buffer's segments go back to the pipe with AdvanceTo: its length is taken before.
            reader.AdvanceTo(buffer.End);
            if (length > 0)
            {
                connection.Consumed(_stream, length);
            }

            if (result.IsCompleted)
            {
                break;
            }
        }

        if (trailers is not null)
        {
            foreach (var (name, value) in _stream.Trailers)
            {
                if (TrailerFields.MayRelay(name, value))
                {
                    trailers.Append(name, value);
                }
            }
        }

        return ForwarderError.None;
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder))]
    public async ValueTask EndAsync(bool completed)
    {
        _connection?.Release(_stream);
        var pump = _pump;
        _pump = default;
        if (!pump.IsCompleted)
        {
            ClientBodyRead.Cancel(_body!);
        }

        await pump;
        _stream.End();
        (_connection, _body, _response) = (null, null, null);
    }

    /// <summary>
    /// Streams the request body as DATA within the send windows, then its trailers as a field block ending the stream
    /// (RFC 9113 §8.1), else an empty DATA frame with END_STREAM. Stops when the stream ends, the client's body fails
    /// (the exchange resets the stream then) or the exchange ends.
    /// </summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder))]
    private async ValueTask PumpAsync(Http2ClientConnection connection, PipeReader body, IHttpRequestTrailersFeature? bodyTrailers)
    {
        try
        {
            while (true)
            {
                var result = await body.ReadAsync();
                if (result.IsCanceled)
                {
                    return;
                }

                var buffer = result.Buffer;
                var end = result.IsCompleted;
                var trailers = end && bodyTrailers is { Available: true, Trailers.Count: > 0 } ? bodyTrailers.Trailers : null;
                var sent = await connection.SendDataAsync(_stream, buffer, endStream: end && trailers is null);
                body.AdvanceTo(buffer.End);
                if (!sent)
                {
                    return;
                }

                if (!end)
                {
                    continue;
                }

                if (trailers is not null)
                {
                    connection.SendTrailers(_stream, EncodeTrailers(trailers));
                }

                return;
            }
        }
        catch (Exception e) when (e is IOException or ConnectionAbortedException or ConnectionResetException or OperationCanceledException or InvalidOperationException
                                      or BadHttpRequestException)
        {
            // The client's body failed: the stream is reset when the exchange ends.
        }
    }

    /// <summary>The request's trailers as a field block (RFC 9113 §8.1), those <see cref="TrailerFields"/> allow, names lowercased.</summary>
    private ReadOnlySpan<byte> EncodeTrailers(IHeaderDictionary trailers)
    {
        _block.ResetWrittenCount();
        Span<byte> scratch = stackalloc byte[TrailerScratchSize];
        foreach (var (name, values) in trailers)
        {
            foreach (var value in values)
            {
                if (TrailerFields.MayRelay(name, value))
                {
                    HpackEncoder.EncodeField(_block, name, value ?? string.Empty, scratch);
                }
            }
        }

        return _block.WrittenSpan;
    }
}
