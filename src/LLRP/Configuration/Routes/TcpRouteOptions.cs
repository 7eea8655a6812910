using System.Net;

namespace LLRP.Configuration.Routes;

/// <summary>
/// One TCP route of <c>ReverseProxy:TcpRoutes</c> (LLRP's extension of YARP's schema): every connection accepted on
/// <see cref="Listen"/> is relayed, byte for byte, to a destination of its cluster.
/// </summary>
/// <param name="Id">The route's key in the section, as logs and metrics name it.</param>
/// <param name="Listen">The address it listens on (<c>Listen</c>): an address literal and a port, or <c>*</c> for every interface.</param>
/// <param name="ClusterId">Its cluster, whose destinations are all <c>tcp://host:port</c>.</param>
/// <param name="IdleTimeout">A relay with no byte either way for this long is closed (<c>IdleTimeout</c>).</param>
/// <param name="ConnectTimeout">An upstream connect that takes longer fails, and another destination is tried (<c>ConnectTimeout</c>, else <c>timeouts.connectMs</c>).</param>
/// <param name="MaxConnections">Most client connections relayed at once; one more is closed at once (<c>MaxConnections</c>); 0 = unlimited.</param>
public sealed record TcpRouteOptions(string Id, IPEndPoint Listen, string ClusterId, TimeSpan IdleTimeout, TimeSpan ConnectTimeout, int MaxConnections)
{
    /// <summary>The idle timeout unless given: nginx's <c>proxy_timeout</c> of its <c>stream</c> module.</summary>
    public static readonly TimeSpan DefaultIdleTimeout = TimeSpan.FromMinutes(10);

    /// <summary>
    /// How long a client may take over its PROXY protocol header unless given: a sender writes the header with, or before,
    /// its first bytes, so a few seconds bound a client that sends nothing (nginx's <c>proxy_protocol_timeout</c> is 30 s).
    /// </summary>
    public static readonly TimeSpan DefaultProxyProtocolTimeout = TimeSpan.FromSeconds(5);

    /// <summary>Each connection starts with a PROXY protocol header, whose client address stands for the connection's (<c>AcceptProxyProtocol</c>).</summary>
    public bool AcceptProxyProtocol { get; init; }

    /// <summary>The networks whose connections may carry a PROXY protocol header (<c>TrustedNetworks</c>); any other connection is closed unrelayed.</summary>
    public IReadOnlyList<IPNetwork> TrustedNetworks { get; init; } = [];

    /// <summary>A header not complete within this closes the connection (<c>ProxyProtocolTimeout</c>).</summary>
    public TimeSpan ProxyProtocolTimeout { get; init; } = DefaultProxyProtocolTimeout;
}
