using LLRP.Configuration;
using LLRP.Http1;

namespace LLRP.Upstream.Sockets;

/// <summary>Raw mode's forwarders: one per client connection, over the shared connector and, for the pooled strategy, the shared pool.</summary>
internal sealed class SocketsForwarderFactory(ProxyOptions options, IUpstreamConnectionFactory connector, UpstreamConnectionPool? pool) : IForwarderFactory
{
    private readonly BodyLimits _responseBodyLimits = new(0, options.MaxChunkLineSize, options.MaxResponseHeadersTotalSize);

    public IRequestForwarder Create(ForwarderContext context) => new SocketsForwarder(
        new UpstreamSession(connector, pool),
        new ResponseRelay(context.Response, options.MaxResponseHeadersTotalSize, _responseBodyLimits, options.ResponseHeadersTimeout, context.Upgrades),
        context.Rewriter,
        context.Limits);
}
