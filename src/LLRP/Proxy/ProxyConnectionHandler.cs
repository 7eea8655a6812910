using Microsoft.AspNetCore.Connections;

namespace LLRP.Proxy;

/// <summary>Kestrel hands every accepted client connection here; each gets the next downstream, round-robin, and a <see cref="ClientSession"/>.</summary>
internal sealed class ProxyConnectionHandler(ClientSessionServices services) : ConnectionHandler
{
    private uint _nextDownstream;

    public override Task OnConnectedAsync(ConnectionContext connection)
    {
        var downstreams = services.Downstreams;
        var downstream = downstreams[(int)((Interlocked.Increment(ref _nextDownstream) - 1) % (uint)downstreams.Count)];
        return new ClientSession(connection, downstream, services).RunAsync();
    }
}
