using LLRP.Configuration;
using LLRP.Http1;

namespace LLRP.Upstream.Sockets;

/// <summary>Raw mode's forwarders: one per client connection, over the shared connector and, for the pooled strategy, the shared pool.</summary>
internal sealed class SocketsForwarderFactory(ProxyOptions options, IUpstreamConnectionFactory connector, UpstreamConnectionPool? pool) : IForwarderFactory
{
    private readonly BodyLimits _responseBodyLimits = ResponseBodyLimitsOf(options);

    /// <summary>The limits a chunked response body is decoded with: chunk lines, and trailers within the response head limit.</summary>
    public static BodyLimits ResponseBodyLimitsOf(ProxyOptions options) => new(0, options.MaxChunkLineSize, options.MaxResponseHeadersTotalSize);

    public IRequestForwarder Create(ForwarderContext context) => new SocketsForwarder(
        new UpstreamSession(connector, pool, context.RemoteEndPoint, context.LocalEndPoint, context.ProxyHeader),
        new ResponseRelay(context.Response, options.MaxResponseHeadersTotalSize, _responseBodyLimits, options.ResponseHeadersTimeout, context.Upgrades),
        context.Rewriter,
        context.Limits);
}
