using System.Net;
using LLRP.Configuration;
using LLRP.Upstream.HttpClient;
using LLRP.Upstream.Sockets;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.Context;

/// <summary>
/// One client connection in httpclient-httpcontext mode: the httpclient mode with an <see cref="HttpContext"/> in the
/// middle, to measure what that indirection costs. Per request:
/// 1. the parsed head fills a <see cref="DefaultHttpContext"/> reused for the connection (request, response, connection features);
/// 2. <see cref="CopyRequest"/> builds the <see cref="HttpRequestMessage"/> from <c>HttpContext.Request</c> only, body included;
/// 3. after <c>SendAsync</c>, <see cref="CopyResponseAsync"/> copies status, fields and body into <c>HttpContext.Response</c>,
///    whose features write the client's response (<see cref="ContextResponse"/>).
/// The rules (fields kept, framing, errors) are the httpclient mode's.
/// </summary>
internal sealed partial class ContextConnection : FrontEndConnection
{
    private readonly DefaultHttpContext _context;
    private readonly FeatureCollection _features = new();
    private readonly HttpRequestFeature _requestFeature;
    private readonly FieldDictionary _requestHeaders = new();
    private readonly ContextResponse _response;
    private readonly RequestTargetStrings _target = new();
    private readonly FieldStringCache _fields = new();
    private readonly TargetUriCache _uris;
    private CachedString _method;
    private CachedString _authority;
    private IPAddress? _lastRemoteAddress;
    private string _lastRemoteAddressString = "unknown";

    public ContextConnection(ConnectionContext connection, DownstreamEndpoint downstream, HttpClientModeServices services)
        : base(connection, downstream, services)
    {
        _uris = new TargetUriCache(downstream);
        _requestFeature = new HttpRequestFeature
        {
            Scheme = "http",
            PathBase = PathString.Empty,
            Headers = _requestHeaders,
            Body = new ContextRequestBodyStream(Body),
        };
        _response = new ContextResponse(ClientOutput, FlushClientAsync);
        var remote = connection.RemoteEndPoint as IPEndPoint;
        var local = connection.LocalEndPoint as IPEndPoint;
        _features.Set<IHttpRequestFeature>(_requestFeature);
        _features.Set<IHttpResponseFeature>(_response);
        _features.Set<IHttpResponseBodyFeature>(_response);
        _features.Set<IHttpConnectionFeature>(new HttpConnectionFeature
        {
            ConnectionId = connection.ConnectionId,
            RemoteIpAddress = remote?.Address,
            RemotePort = remote?.Port ?? 0,
            LocalIpAddress = local?.Address,
            LocalPort = local?.Port ?? 0,
        });
        _context = new DefaultHttpContext(_features);
    }

    protected override bool Prepare()
    {
        FillRequest();
        _response.Reset(Request.IsHeadMethod, Request.IsHttp10);
        _context.Uninitialize();
        _context.Initialize(_features);
        return true;
    }

    protected override ForwardedContent NewContent() => new StreamBodyContent(Body);

    protected override async ValueTask<bool> ForwardAsync()
    {
        var message = CopyRequest(_context);
        try
        {
            HttpResponseMessage response;
            try
            {
                response = await SendAsync(message);
            }
            catch (Exception e)
            {
                await FailBeforeResponseAsync(message, e);
                return false;
            }

            using (response)
            {
                _response.Persistent = Persists;
                if (!Body.IsCompleted)
                {
                    await StopBodyAsync(message);
                }

                if (response.StatusCode == HttpStatusCode.SwitchingProtocols || !ResponseFieldCheck.HasValidFraming(response))
                {
                    Fail(ForwarderError.InvalidResponse, null);
                    return false;
                }

                var error = await CopyResponseAsync(response, _context.Response);
                if (error != ForwarderError.None)
                {
                    Abort(error);
                    return false;
                }

                await _response.CompleteAsync();
                Completed();
                return !_response.Closes;
            }
        }
        finally
        {
            Release(message);
        }
    }
}
