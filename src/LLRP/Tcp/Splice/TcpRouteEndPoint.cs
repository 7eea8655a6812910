using System.Net;

namespace LLRP.Tcp.Splice;

/// <summary>A TCP route's <c>Listen</c> address, typed so that Kestrel binds it with <see cref="TcpRouteListenerFactory"/> and every other address with its usual transport.</summary>
internal sealed class TcpRouteEndPoint(IPEndPoint listen) : IPEndPoint(listen.Address, listen.Port);
