using System.Diagnostics;
using System.Net;
using System.Runtime.CompilerServices;
using LLRP.ClientSide;
using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Diagnostics.AccessLogging;
using LLRP.Http1;
using LLRP.Proxy;
using LLRP.Routing;
using LLRP.Tasks;
using LLRP.Upstream;
using LLRP.Upstream.Http2Client;
using LLRP.Upstream.HttpClient;
using LLRP.Upstream.Sockets;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Http2;

/// <summary>
/// The HTTP/2 front end: each request stream the HTTP/2 server (LLRP's own or Kestrel's) decodes on a proxy listener (handed over by
/// <see cref="ProtocolSelection"/>) goes through the same steps as an HTTP/1.1 request, with the same code:
/// 1. its head, as HTTP/1.1 (written by LLRP's own server as it decoded the fields, else rendered from the strings), is
///    parsed with the HTTP/1.1 front end's parser and limits (<see cref="RenderedRequestHead"/>); a refused head is
///    answered with its status;
/// 2. <see cref="ClientRouting"/> matches its route, picks the destination (balancing, affinity, slot, retries elsewhere,
///    passive health) and points the <see cref="RequestRewriter"/> at it;
/// 3. <see cref="StreamForwarder"/> carries it over HttpClient (HTTP/1.1 or HTTP/2 to the destination, as its cluster
///    asks), or in raw mode with pooled connections over raw mode's own HTTP/1.1 connections when the cluster is at
///    HTTP/1.1, and relays the response as it comes;
/// 4. a failure is reported once and answered with <see cref="ErrorPolicy"/>'s status before the response started
///    (<see cref="StreamAnswers"/>), or resets the stream (RST_STREAM) after;
/// 5. with the access log on, the stream's line is written once its exchange has ended (<see cref="StreamAccessLog"/>).
/// The head's buffer, the forwarding rules, the forwarder and the routing come from <see cref="StreamPartsPool"/> and go back when the stream ends.
/// </summary>
internal sealed class Http2FrontEnd(
    ProxyOptions options,
    Router router,
    ProxyMetrics metrics,
    FailureLog failureLog,
    HttpMessageInvoker invoker,
    AccessLogWriter? accessLog = null,
    Func<PooledStreamExchange>? pooledExchange = null,
    Func<Http2StreamExchange>? http2Exchange = null)
{
    private static readonly byte[] HttpScheme = "http"u8.ToArray();
    private static readonly byte[] HttpsScheme = "https"u8.ToArray();

    /// <summary>What <c>Via</c> gets for a request received over HTTP/2 (RFC 9110 §7.6.3: the protocol version received).</summary>
    private static readonly byte[] ViaEntry = "2 llrp"u8.ToArray();

    private readonly RequestLimits _limits = ClientSessionServices.RequestLimitsOf(options);
    private readonly RoutingServices _routing = new(metrics, failureLog, options.RetryUnsentAnyMethod);
    private readonly StreamPartsPool _parts = new(invoker, options.MaxResponseHeadersTotalSize, ClientSessionServices.RewriteSettingsOf(options), ViaEntry, pooledExchange, http2Exchange);

    /// <remarks>One async method for the whole stream, its steps and the return of its parts: each async method more is a state machine and a resumption more per request.</remarks>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder))]
    public async ValueTask HandleAsync(HttpContext context)
    {
        var start = Stopwatch.GetTimestamp();
        var parts = _parts.Take();
        var client = parts.ClientAddressOf(context.Connection.RemoteIpAddress);
        var log = accessLog is null ? null : new StreamAccessLog(accessLog, options.AccessLogFormat == AccessLogFormat.Json);
        try
        {
            if (HttpMethods.IsConnect(context.Request.Method))
            {
                await StreamAnswers.ConnectRefusedAsync(context);
                return;
            }

            // LLRP's own server refused connection-specific fields as it decoded them and wrote the head (RFC 9113 §8.2.2);
            // fields that did not come that way (Kestrel's server, a replaced dictionary) are checked here.
            ReadOnlyMemory<byte>? written = context.Features.Get<IRequestHeadBytesFeature>() is { } bytes && bytes.TryGetHead(out var writtenHead) ? (ReadOnlyMemory<byte>?)writtenHead : null;
            if (written is null && ConnectionSpecificFields.In(context.Request.Headers))
            {
                context.Features.GetRequiredFeature<IHttpResetFeature>().Reset(ConnectionSpecificFields.ProtocolError);
                return;
            }

            RequestHead head;
            try
            {
                head = parts.Head.Parse(context, written, _limits);
            }
            catch (HttpMessageException e)
            {
                failureLog.RequestRejected(context.Connection.RemoteIpAddress is { } address ? new IPEndPoint(address, context.Connection.RemotePort) : null, e.Reason);
                metrics.RequestRejected(e.Reason);
                await StreamAnswers.RejectedAsync(context, e.Reason);
                return;
            }

            var tls = context.Request.IsHttps;
            var rewriter = parts.Rewriter;
            rewriter.ForClient(client, tls ? HttpsScheme : HttpScheme);
            var forwarder = parts.Forwarder;
            forwarder.Begin(context, rewriter);
            var routing = parts.RoutingFor(router, _routing, tls);
            if (log is not null)
            {
                (log.Routing, log.Forwarder) = (routing, forwarder);
            }
            if (!routing.IsRoutable(head))
            {
                metrics.RequestRejected(RejectionReason.DotSegmentInPath);
                await StreamAnswers.RejectedAsync(context, RejectionReason.DotSegmentInPath);
                return;
            }

            if (routing.Match(head) is not { } route)
            {
                metrics.RequestUnrouted();
                await StreamAnswers.ForwardingFailedAsync(context, ForwarderError.NoRoute, 0);
                return;
            }

            // Picks the destination, forwards, and tries another destination while the failure allows it; the slot is
            // given back on every path. Inline, not a method of its own: the destination's answer resumes one method fewer.
            var body = head.Framing == BodyFraming.None ? BodyKind.None : BodyKind.Streaming;
            var error = await routing.BeginAsync(route, head.IsIdempotent, head);
            while (error == ForwarderError.None)
            {
                forwarder.Add(head, default, 0, 0, body);
                var result = await forwarder.ForwardAsync(null);
                routing.Report(result.Error, result.Completed);
                if (!routing.IsUnanswered(result, head.IsIdempotent))
                {
                    routing.Release();
                    error = result.Error;
                    break;
                }

                error = await routing.RetryElsewhereAsync(result.Error, head.IsIdempotent);
            }

            if (error == ForwarderError.None)
            {
                metrics.RequestCompleted(start, routing.Destination!.Tag, forwarder.Status, ProxyMetrics.Http2);
                return;
            }

            if (ErrorPolicy.IsReported(error) && !context.RequestAborted.IsCancellationRequested)
            {
                var destination = error == ForwarderError.NoHealthyDestination ? null : routing.Destination;
                failureLog.ForwardingFailed(destination?.Name ?? "(no destination available)", error);
                metrics.ForwardingFailed(error, destination?.Tag ?? default);
            }

            if (context.Response.HasStarted || ErrorPolicy.StatusCode(error) == 0)
            {
                context.Abort();
                return;
            }

            context.Response.Clear();
            await StreamAnswers.ForwardingFailedAsync(context, error, routing.RetryAfterSeconds());
        }
        finally
        {
            log?.Write(context, client, start);
            parts.Forwarder.End();
            _parts.Return(parts);
        }
    }
}
