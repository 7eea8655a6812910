using LLRP.Configuration;

namespace LLRP.Upstream.Sockets;

/// <summary>Opens a new connection to a destination; sockets in the proxy, in-memory pipes in benchmarks.</summary>
internal interface IUpstreamConnectionFactory
{
    /// <exception cref="UpstreamException">Refused, unreachable or timed out.</exception>
    ValueTask<UpstreamConnection> ConnectAsync(DestinationEndpoint destination);
}
