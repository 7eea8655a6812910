using LLRP.Configuration;
using LLRP.Upstream.Sockets;
using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.Logging;

namespace LLRP.Proxy;

/// <summary>Kestrel hands every accepted client connection here; each gets the next downstream, round-robin.</summary>
internal sealed class ProxyConnectionHandler(
    ProxyOptions options,
    UpstreamConnector connector,
    UpstreamConnectionPool pool,
    ILogger<ProxyConnectionHandler> logger) : ConnectionHandler
{
    private readonly UpstreamConnectionPool? _pool = options.ConnectionStrategy == UpstreamConnectionStrategy.Pooled ? pool : null;
    private uint _nextDownstream;

    public override Task OnConnectedAsync(ConnectionContext connection)
    {
        var downstreams = options.Downstreams;
        var downstream = downstreams[(int)((Interlocked.Increment(ref _nextDownstream) - 1) % (uint)downstreams.Count)];
        return new ClientConnection(connection, downstream, options, connector, _pool, logger).RunAsync();
    }
}
