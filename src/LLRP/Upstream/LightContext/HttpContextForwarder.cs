using System.Buffers;
using LLRP.ClientSide;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Upstream.HttpClient;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.LightContext;

/// <summary>
/// httpclient-httpcontext mode: the httpclient mode with an <c>HttpContext</c> in the middle, to measure what that
/// indirection costs. Per request:
/// 1. the parsed head fills the <see cref="LightHttpContext"/> (with the forwarding rules applied);
/// 2. the <see cref="HttpRequestMessage"/> is built from <c>HttpContext.Request</c> only, its body read from <c>HttpRequest.Body</c>;
/// 3. after <c>SendAsync</c>, status, fields and body are copied into <c>HttpContext.Response</c>, which writes the client's
///    response; a <c>101</c> to an upgrade request hands the response's read-write stream to the session as a tunnel.
/// 4. its trailers, once its body is read, go to the trailers feature (offered to a client that sent <c>TE: trailers</c>).
/// </summary>
internal sealed class HttpContextForwarder(ForwarderContext context, HttpClientExchange exchange, int maxResponseHeadSize) : IRequestForwarder, IResponseForwarder
{
    /// <summary>
    /// Bytes read from the response per write to <c>HttpResponse.Body</c>, which flushes each write as Kestrel's does:
    /// 64 KiB, as YARP's copier (with 16 KiB, a 100 KB body left in seven 16 KiB sends instead of two).
    /// </summary>
    private const int ResponseBufferSize = 64 * 1024;

    private readonly LightHttpContext _light = new(context, maxResponseHeadSize);
    private readonly TargetUriCache _uris = new();
    private readonly Func<ForwardedContent> _newContent = () => new StreamBodyContent(context.Body);
    private bool _hasBody;
    private ulong _requestedUpgrades;

    public ForwarderTraits Traits => ForwarderTraits.HttpClient;

    public ValueTask<ForwarderError> BeginBatchAsync(DestinationEndpoint destination, ClusterOptions cluster)
    {
        exchange.Cluster = cluster;
        _uris.Retarget(destination);
        return ValueTask.FromResult(ForwarderError.None);
    }

    public void Add(RequestHead head, in ReadOnlySequence<byte> message, int headLength, long bodyLength, BodyKind body)
    {
        _light.Fill(head, body);
        _hasBody = body != BodyKind.None;
        _requestedUpgrades = head.RequestedUpgrades;
    }

    public ValueTask<ForwardResult> ForwardAsync(ClientRequestBody? body)
    {
        var httpContext = _light.Context;
        var message = exchange.NextMessage(_requestedUpgrades != 0);
        if (_hasBody)
        {
            var content = (StreamBodyContent)exchange.Content(_newContent);
            content.Source = httpContext.Request.Body;
            content.Headers.ContentLength = httpContext.Request.ContentLength;
            message.Content = content;
        }

        ContextMessages.CopyRequest(httpContext, message, _uris);
        return exchange.ExchangeAsync(message, this, body);
    }

    public ValueTask<ForwardResult> ForwardResponseAsync(HttpRequestMessage message, HttpResponseMessage response, ClientRequestBody? body)
    {
        if (body is { IsCompleted: false })
        {
            return StopBodyThenCopyResponseAsync(message, response);
        }

        if (body is null)
        {
            _light.Response.BodyGoesOnBeside();
        }

        return CopyResponseAsync(response);
    }

    /// <summary>HttpClient returned before sending the whole body: the body stops reading the client before the response is copied.</summary>
    private async ValueTask<ForwardResult> StopBodyThenCopyResponseAsync(HttpRequestMessage message, HttpResponseMessage response)
    {
        await HttpClientExchange.StopBodyAsync(message);
        return await CopyResponseAsync(response);
    }

    public ValueTask DisposeAsync()
    {
        exchange.Dispose();
        return default;
    }

    /// <summary>Copies the response into <c>HttpContext.Response</c>, then its body, read by read through a pooled buffer, into <c>HttpResponse.Body</c>.</summary>
    private async ValueTask<ForwardResult> CopyResponseAsync(HttpResponseMessage source)
    {
        var response = _light.Response;
        ContextMessages.CopyResponse(source, _light.Context.Response);
        ResponseHead head;
        try
        {
            head = response.PrepareHead();
        }
        catch (HttpMessageException)
        {
            return ForwardResult.Failed(0, ForwarderError.InvalidResponse, started: false);
        }

        if (head.IsInterim)
        {
            if (!context.Upgrades.AcceptsSwitch(head, _requestedUpgrades))
            {
                return ForwardResult.Failed(0, ForwarderError.InvalidResponse, started: false);
            }

            // A 101 to the upgrade request: its head goes to the client, the response's stream is the tunnel's destination end.
            await response.StartAsync();
            return ForwardResult.Switched(await UpgradedStream.OpenAsync(source));
        }

        await response.StartAsync();
        var stream = await source.Content.ReadAsStreamAsync();
        if (await ResponseBodyCopy.CopyAsync(stream, new LightResponseBodySink(response), ResponseBufferSize, CancellationToken.None) is var error
            and not ForwarderError.None)
        {
            return ForwardResult.Failed(0, error, started: true);
        }

        if (_light.Features.Get<IHttpResponseTrailersFeature>() is { } trailers)
        {
            ContextMessages.CopyTrailers(source, trailers.Trailers);
        }

        await response.CompleteAsync();
        return new ForwardResult(1, ForwarderError.None, Started: true, response.Closes);
    }
}
