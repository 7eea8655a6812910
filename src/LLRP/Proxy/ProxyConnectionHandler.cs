using LLRP.Configuration;
using LLRP.Upstream.Context;
using LLRP.Upstream.HttpClient;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Proxy;

/// <summary>
/// Kestrel hands every accepted client connection here; each gets the next downstream, round-robin, and the connection
/// loop of the configured mode. Only the chosen mode's services are registered; the other's arrive as null.
/// </summary>
internal sealed class ProxyConnectionHandler(
    ProxyOptions options,
    RawModeServices? rawServices = null,
    HttpClientModeServices? httpClientServices = null) : ConnectionHandler
{
    private uint _nextDownstream;

    public override Task OnConnectedAsync(ConnectionContext connection)
    {
        var downstreams = options.Downstreams;
        var downstream = downstreams[(int)((Interlocked.Increment(ref _nextDownstream) - 1) % (uint)downstreams.Count)];
        return options.Mode switch
        {
            ProxyMode.HttpClient => new HttpClientConnection(connection, downstream, httpClientServices!).RunAsync(),
            ProxyMode.HttpClientWithContext => new ContextConnection(connection, downstream, httpClientServices!).RunAsync(),
            _ => new ClientConnection(connection, downstream, rawServices!).RunAsync(),
        };
    }
}
