using System.IO.Pipelines;
using LLRP.Http2.Codec;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Http2.Server;

/// <summary>The request and response features the front end, the forwarders and ASP.NET Core's <see cref="HttpContext"/> read.</summary>
internal sealed partial class Http2Stream :
    IHttpRequestFeature, IHttpResponseFeature, IHttpResponseBodyFeature, IRequestBodyPipeFeature, IHttpRequestLifetimeFeature,
    IHttpResetFeature, IHttpResponseTrailersFeature, IHttpRequestTrailersFeature, IHttpRequestBodyDetectionFeature, IRequestHeadBytesFeature
{
    private CancellationToken? _requestAborted;
    private Stream? _requestBodyOverride;
    private IHeaderDictionary? _requestHeadersOverride;

    string IHttpRequestFeature.Protocol { get => "HTTP/2"; set { } }

    string IHttpRequestFeature.Scheme { get => _scheme; set => _scheme = value; }

    string IHttpRequestFeature.Method { get => _method; set => _method = value; }

    string IHttpRequestFeature.PathBase { get => ""; set { } }

    string IHttpRequestFeature.Path
    {
        get => _path ??= SplitTarget().Path;
        set => _path = value;
    }

    string IHttpRequestFeature.QueryString
    {
        get => _queryString ??= SplitTarget().Query;
        set => _queryString = value;
    }

    string IHttpRequestFeature.RawTarget { get => RawTarget(); set => _rawTarget = value; }

    IHeaderDictionary IHttpRequestFeature.Headers { get => _requestHeadersOverride ?? RequestHeaders(); set => _requestHeadersOverride = value; }

    Stream IHttpRequestFeature.Body
    {
        get
        {
            if (_requestBodyOverride is { } replaced)
            {
                return replaced;
            }

            RequestBodyAsked();
            return _requestStream;
        }
        set => _requestBodyOverride = value;
    }

    PipeReader IRequestBodyPipeFeature.Reader
    {
        get
        {
            RequestBodyAsked();
            return _bodyReader;
        }
    }

    bool IRequestHeadBytesFeature.TryGetHead(out ReadOnlyMemory<byte> head) => TryGetWrittenHead(out head);

    bool IHttpRequestBodyDetectionFeature.CanHaveBody => !_endStreamOnHead;

    bool IHttpRequestTrailersFeature.Available => _trailersAvailable;

    IHeaderDictionary IHttpRequestTrailersFeature.Trailers
        => _trailersAvailable ? _requestTrailers : throw new InvalidOperationException("The request trailers are not available before the body has been read.");

    int IHttpResponseFeature.StatusCode
    {
        get => _status;
        set => _status = _started ? throw new InvalidOperationException("The response has started.") : value;
    }

    string? IHttpResponseFeature.ReasonPhrase { get => null; set { } }

    IHeaderDictionary IHttpResponseFeature.Headers { get => _responseHeaders; set => throw new NotSupportedException("The response's headers are the stream's own."); }

    Stream IHttpResponseFeature.Body { get => _responseStream; set => throw new NotSupportedException("The response body is the stream's own."); }

    bool IHttpResponseFeature.HasStarted => _started;

    void IHttpResponseFeature.OnStarting(Func<object, Task> callback, object state) => _callbacks.OnStarting(callback, state);

    void IHttpResponseFeature.OnCompleted(Func<object, Task> callback, object state) => _callbacks.OnCompleted(callback, state);

    Stream IHttpResponseBodyFeature.Stream => _responseStream;

    PipeWriter IHttpResponseBodyFeature.Writer => _bodyWriter;

    void IHttpResponseBodyFeature.DisableBuffering()
    {
    }

    Task IHttpResponseBodyFeature.StartAsync(CancellationToken cancellationToken) => SendAsync(end: false).AsTask();

    Task IHttpResponseBodyFeature.SendFileAsync(string path, long offset, long? count, CancellationToken cancellationToken)
        => SendFileFallback.SendFileAsync(_responseStream, path, offset, count, cancellationToken);

    async Task IHttpResponseBodyFeature.CompleteAsync()
    {
        if (!_ending)
        {
            _ending = true;
            await SendAsync(end: true);
        }
    }

    IHeaderDictionary IHttpResponseTrailersFeature.Trailers { get => _responseTrailers; set => throw new NotSupportedException("The response's trailers are the stream's own."); }

    CancellationToken IHttpRequestLifetimeFeature.RequestAborted
    {
        get => _requestAborted ?? _abortSource.Token;
        set => _requestAborted = value;
    }

    /// <summary>As Kestrel does: the stream is reset with INTERNAL_ERROR.</summary>
    void IHttpRequestLifetimeFeature.Abort() => Reset(Http2ErrorCode.InternalError);

    void IHttpResetFeature.Reset(int errorCode) => Reset((Http2ErrorCode)errorCode);

    private (string Path, string Query) SplitTarget()
    {
        var target = RawTarget();
        var query = target.IndexOf('?');
        return query < 0 ? (target, "") : (target[..query], target[query..]);
    }
}
