using System.Net;
using LLRP.Configuration.Routes;

namespace LLRP.Configuration;

/// <summary>
/// Keys <c>proxyProtocol.*</c>: every connection to the proxy's urls starts with a PROXY protocol header (HAProxy's
/// <c>accept-proxy</c>), whose client address stands for the connection's in X-Forwarded-For, the access log and the
/// PROXY header sent on. A connection from another network, or whose header is missing, malformed, cut or late, is closed
/// before TLS and HTTP, nothing of it forwarded.
/// </summary>
/// <param name="TrustedNetworks">Key <c>proxyProtocol.trustedNetworks</c>: the networks whose connections may carry a header (the senders': load balancers); required.</param>
/// <param name="Timeout">Key <c>proxyProtocol.timeoutMs</c>: a header not whole within this closes the connection.</param>
public sealed record ProxyProtocolAcceptance(IReadOnlyList<IPNetwork> TrustedNetworks, TimeSpan Timeout)
{
    /// <summary>The timeout unless given: the TCP routes' (<see cref="TcpRouteOptions.DefaultProxyProtocolTimeout"/>).</summary>
    public static TimeSpan DefaultTimeout => TcpRouteOptions.DefaultProxyProtocolTimeout;
}
