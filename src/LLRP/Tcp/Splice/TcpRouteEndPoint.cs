using System.Net;

namespace LLRP.Tcp.Splice;

/// <summary>A TCP route's <c>Listen</c> address, typed so that Kestrel binds it with <see cref="TcpRouteListenerFactory"/> and every other address with its usual transport.</summary>
/// <param name="Connections">The route's connections, whose steps they all take.</param>
internal sealed class TcpRouteEndPoint(IPEndPoint listen, TcpRouteConnections connections) : IPEndPoint(listen.Address, listen.Port)
{
    public TcpRouteConnections Connections => connections;
}
