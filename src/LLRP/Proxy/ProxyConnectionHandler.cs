using LLRP.Configuration;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Proxy;

/// <summary>Kestrel hands every accepted client connection here; each gets the next downstream, round-robin.</summary>
internal sealed class ProxyConnectionHandler(ProxyOptions options, RawModeServices rawServices) : ConnectionHandler
{
    private uint _nextDownstream;

    public override Task OnConnectedAsync(ConnectionContext connection)
    {
        var downstreams = options.Downstreams;
        var downstream = downstreams[(int)((Interlocked.Increment(ref _nextDownstream) - 1) % (uint)downstreams.Count)];
        return new ClientConnection(connection, downstream, rawServices).RunAsync();
    }
}
