using System.Buffers;
using System.Runtime.CompilerServices;
using LLRP.Http1;
using LLRP.Upstream.HttpClient;
using LLRP.Upstream.LightContext;
using Yarp.ReverseProxy.Forwarder;
using ForwarderError = LLRP.Diagnostics.ForwarderError;

namespace LLRP.Upstream.Yarp;

/// <summary>
/// yarp mode: each request fills the <see cref="LightHttpContext"/> (with the forwarding rules applied) and is sent by
/// YARP's <see cref="IHttpForwarder"/>, over the invokers of the HttpClient modes: YARP builds the message, streams the
/// request body from <c>HttpRequest.Body</c>, copies the response into <c>HttpContext.Response</c> through
/// <see cref="LlrpTransformer"/> and its body with its own copier. YARP's errors are mapped to raw mode's and answered by the session.
/// </summary>
internal sealed class YarpForwarder : IRequestForwarder
{
    private InvokerSelector _invokers;
    private readonly IHttpForwarder _forwarder;
    private readonly ForwarderRequestConfig _config;
    private readonly LightHttpContext _light;
    private readonly LlrpTransformer _transformer;
    private readonly string _destinationPrefix;

    public YarpForwarder(ForwarderContext context, InvokerSelector invokers, IHttpForwarder forwarder, ForwarderRequestConfig config, int maxResponseHeadSize)
    {
        _invokers = invokers;
        _forwarder = forwarder;
        _config = config;
        _light = new LightHttpContext(context, maxResponseHeadSize);
        var uris = new TargetUriCache(context.Downstream);
        _transformer = new LlrpTransformer(_light, uris);
        _destinationPrefix = uris.Origin;
    }

    public ForwarderTraits Traits => ForwarderTraits.HttpClient;

    public void Add(RequestHead head, in ReadOnlySequence<byte> message, int headLength, long bodyLength, BodyKind body)
    {
        _light.Fill(head, body);
        _light.Features.Set<IForwarderErrorFeature>(null);
        _transformer.Reset();
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<ForwardResult> ForwardAsync(ClientRequestBody? body)
    {
        var error = await _forwarder.SendAsync(_light.Context, _destinationPrefix, _invokers.Next(), _config, _transformer);
        var response = _light.Response;
        if (_transformer.InvalidResponse)
        {
            return ForwardResult.Failed(0, ForwarderError.InvalidResponse, response.HasStarted);
        }

        if (error != global::Yarp.ReverseProxy.Forwarder.ForwarderError.None
            && !(YarpErrors.IsAfterResponse(error) && _transformer.ResponseCopied))
        {
            var mapped = YarpErrors.Map(error, _light.Features.Get<IForwarderErrorFeature>()?.Exception);
            return ForwardResult.Failed(0, mapped, response.HasStarted);
        }

        await response.CompleteAsync();
        return new ForwardResult(1, ForwarderError.None, Started: true, response.Closes || body is { IsCompleted: false });
    }

    public ValueTask DisposeAsync()
    {
        _invokers.Dispose();
        return default;
    }
}
