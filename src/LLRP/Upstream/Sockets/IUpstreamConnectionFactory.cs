using LLRP.Configuration;

namespace LLRP.Upstream.Sockets;

/// <summary>Opens a new connection to a destination; sockets in the proxy, in-memory pipes in benchmarks.</summary>
internal interface IUpstreamConnectionFactory
{
    /// <param name="destination">Where to connect.</param>
    /// <param name="proxyHeader">The PROXY protocol header sent first, before any TLS (empty for none): its send failing fails the connect.</param>
    /// <exception cref="UpstreamException">Refused, unreachable or timed out.</exception>
    ValueTask<UpstreamConnection> ConnectAsync(DestinationEndpoint destination, ReadOnlyMemory<byte> proxyHeader);
}
