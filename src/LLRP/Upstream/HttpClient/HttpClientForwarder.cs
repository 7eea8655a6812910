using System.Buffers;
using LLRP.ClientSide;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Http1;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// httpclient mode: each request fills an <see cref="HttpRequestMessage"/> straight from its parsed head, with the
/// <see cref="RequestRewriter"/>'s fields and target; its body streams from the client (<see cref="PipeBodyContent"/>);
/// <see cref="HttpMessageInvoker.SendAsync"/> returns once the response head is in; that head is validated and
/// re-emitted with raw mode's rules (<see cref="ResponseMessageHead"/>) and its body copied to the client, its trailers after
/// a chunked body when the client sent <c>TE: trailers</c>; a <c>101</c> to
/// an upgrade request hands the response's read-write stream to the session as a tunnel.
/// </summary>
internal sealed class HttpClientForwarder(ForwarderContext context, HttpClientExchange exchange, int maxResponseHeadSize) : IRequestForwarder, IResponseForwarder
{
    private readonly FieldStringCache _strings = new();
    private readonly TargetUriCache _uris = new();
    private readonly ArrayBufferWriter<byte> _target = new(256);
    private readonly RenderedResponseHead _responseHead = new();
    private readonly Func<ForwardedContent> _newContent = () => new PipeBodyContent(context.Body);
    private MethodCache _methods;
    private DestinationEndpoint? _destination;
    private HttpRequestMessage? _message;
    private bool _isHead;
    private bool _isHttp10;
    private bool _isPersistent;
    private bool _acceptsTrailers;
    private ulong _requestedUpgrades;

    public ForwarderTraits Traits => ForwarderTraits.HttpClient;

    public ValueTask<ForwarderError> BeginBatchAsync(DestinationEndpoint destination, ClusterOptions cluster)
    {
        exchange.Cluster = cluster;
        _destination = destination;
        _uris.Retarget(destination);
        return ValueTask.FromResult(ForwarderError.None);
    }

    public void Add(RequestHead head, in ReadOnlySequence<byte> message, int headLength, long bodyLength, BodyKind body)
    {
        var request = _message = exchange.NextMessage(head.IsUpgrade);
        request.Method = _methods.Get(head.Method);
        request.RequestUri = _uris.Get(context.Rewriter.RenderTarget(head, _target));
        if (body != BodyKind.None)
        {
            var content = exchange.Content(_newContent);
            content.Headers.ContentLength = head.Framing == BodyFraming.ContentLength ? head.ContentLength : null;
            request.Content = content;
        }

        var fields = new MessageFieldSink(request, _strings, _destination!.Authority, static () => new ByteArrayContent([]));
        context.Rewriter.WriteFields(head, ref fields);
        (_isHead, _isHttp10, _isPersistent, _requestedUpgrades, _acceptsTrailers) = (head.IsHeadMethod, head.IsHttp10, head.IsPersistent, head.RequestedUpgrades, head.AcceptsTrailers);
    }

    public ValueTask<ForwardResult> ForwardAsync(ClientRequestBody? body) => exchange.ExchangeAsync(_message!, this, body);

    public ValueTask DisposeAsync()
    {
        exchange.Dispose();
        return default;
    }

    public async ValueTask<ForwardResult> ForwardResponseAsync(HttpRequestMessage message, HttpResponseMessage response, ClientRequestBody? body)
    {
        var persistent = _isPersistent && (body is null || body.IsCompleted);
        if (body is { IsCompleted: false })
        {
            await HttpClientExchange.StopBodyAsync(message);
        }

        ResponseHead head;
        try
        {
            head = ResponseMessageHead.Parse(response, _responseHead, maxResponseHeadSize);
        }
        catch (HttpMessageException)
        {
            return ForwardResult.Failed(0, ForwarderError.InvalidResponse, started: false);
        }

        var client = context.Response;
        if (head.IsInterim)
        {
            return context.Upgrades.AcceptsSwitch(head, _requestedUpgrades)
                ? await SwitchProtocolsAsync(head, response, client)
                : ForwardResult.Failed(0, ForwarderError.InvalidResponse, started: false);
        }

        var framing = client.WriteHead(head, _isHead, _isHttp10, persistent);
        if (framing.Body != BodyFraming.None
            && await ResponseBodyCopy.CopyAsync(
                await response.Content.ReadAsStreamAsync(),
                new ClientWriterBodySink(client, _acceptsTrailers ? response : null),
                ClientWriterBodySink.BufferSize,
                CancellationToken.None) is var error and not ForwarderError.None)
        {
            return ForwardResult.Failed(0, error, started: true);
        }

        return new ForwardResult(1, ForwarderError.None, Started: true, framing.Close);
    }

    /// <summary>A <c>101</c> to the upgrade request: its head goes to the client, and the response's stream is the tunnel's destination end.</summary>
    private static async ValueTask<ForwardResult> SwitchProtocolsAsync(ResponseHead head, HttpResponseMessage response, ClientResponseWriter client)
    {
        client.WriteSwitchingProtocols(head);
        return ForwardResult.Switched(await UpgradedStream.OpenAsync(response));
    }
}
