using System.Buffers;
using System.Net;
using LLRP.Http1;
using LLRP.Upstream.HttpClient;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.LightContext;

/// <summary>
/// A <see cref="DefaultHttpContext"/> over LLRP's own features, reused for every request of one client connection: the
/// request is the one to forward (the <see cref="RequestRewriter"/>'s target and fields, the body read from the client
/// as it comes), the response is written to the client by <see cref="LightResponse"/>. What it costs to go through
/// <see cref="HttpContext"/> is what the modes built on it measure.
/// </summary>
internal sealed class LightHttpContext
{
    private readonly ForwarderContext _forwarder;
    private readonly FeatureCollection _features = new();
    private readonly HttpRequestFeature _request;
    private readonly FieldDictionary _requestHeaders = new();
    private readonly RequestBodyDetection _bodyDetection = new();
    private readonly DefaultHttpContext _context;
    private readonly RequestTargetStrings _target = new();
    private readonly ArrayBufferWriter<byte> _targetBytes = new(256);
    private readonly FieldStringCache _fields = new();
    private MethodCache _methods;

    public LightHttpContext(ForwarderContext forwarder, int maxResponseHeadSize)
    {
        _forwarder = forwarder;
        _request = new HttpRequestFeature
        {
            Scheme = "http",
            PathBase = PathString.Empty,
            Headers = _requestHeaders,
            Body = new LightRequestBodyStream(forwarder.Body),
        };
        Response = new LightResponse(forwarder.Response, maxResponseHeadSize);
        var remote = forwarder.RemoteEndPoint as IPEndPoint;
        var local = forwarder.LocalEndPoint as IPEndPoint;
        _features.Set<IHttpRequestFeature>(_request);
        _features.Set<IHttpResponseFeature>(Response);
        _features.Set<IHttpResponseBodyFeature>(Response);
        _features.Set<IHttpRequestBodyDetectionFeature>(_bodyDetection);
        // RequestAborted never fires: a client that half-closes after its request still gets its response (RFC 9112 §9.6),
        // and one that went away shows as a failed write.
        _features.Set<IHttpRequestLifetimeFeature>(new HttpRequestLifetimeFeature());
        _features.Set<IHttpConnectionFeature>(new HttpConnectionFeature
        {
            ConnectionId = forwarder.ConnectionId,
            RemoteIpAddress = remote?.Address,
            RemotePort = remote?.Port ?? 0,
            LocalIpAddress = local?.Address,
            LocalPort = local?.Port ?? 0,
        });
        _context = new DefaultHttpContext(_features);
    }

    public HttpContext Context => _context;

    public LightResponse Response { get; }

    /// <summary>The target to forward, as the request feature's raw target holds it.</summary>
    public string Target => _target.RawTarget;

    /// <summary>The features, for a forwarder that adds its own (YARP's error feature).</summary>
    public IFeatureCollection Features => _features;

    /// <summary>
    /// Makes the context the request to forward: method, protocol, the target after the destination's path prefix (raw,
    /// and as Kestrel presents path and query), every field the rules keep, and the body's framing.
    /// </summary>
    public void Fill(RequestHead head, BodyKind body)
    {
        _request.Method = _methods.Get(head.Method).Method;
        _request.Protocol = head.IsHttp10 ? HttpProtocol.Http10 : HttpProtocol.Http11;
        _target.Set(_forwarder.Rewriter.RenderTarget(head, _targetBytes));
        _request.RawTarget = _target.RawTarget;
        _request.Path = _target.Path;
        _request.QueryString = _target.Query;

        _requestHeaders.Clear();
        var fields = new DictionaryFieldSink(_requestHeaders, _fields);
        _forwarder.Rewriter.WriteFields(head, ref fields);
        if (head.Framing == BodyFraming.ContentLength)
        {
            _requestHeaders.ContentLength = head.ContentLength;
        }
        else if (head.Framing == BodyFraming.Chunked)
        {
            _requestHeaders.Append("Transfer-Encoding", "chunked");
        }

        _bodyDetection.CanHaveBody = body != BodyKind.None;
        _features.Set<IHttpRequestBodyDetectionFeature>(_bodyDetection);
        // Trailers reach an HTTP/1.1 client that said it accepts them (TE: trailers, RFC 9110 §10.1.4); YARP copies none without the feature.
        _features.Set<IHttpResponseTrailersFeature>(head.AcceptsTrailers ? Response : null);
        Response.Reset(head.IsHeadMethod, head.IsHttp10, head.IsPersistent, body == BodyKind.None ? null : _forwarder.Body);
        _context.Uninitialize();
        _context.Initialize(_features);
    }
}
