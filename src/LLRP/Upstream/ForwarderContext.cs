using System.IO.Pipelines;
using System.Net;
using LLRP.ClientSide;
using LLRP.Http1;
using LLRP.ProxyProtocol;

namespace LLRP.Upstream;

/// <summary>What a forwarder is given about its client connection.</summary>
/// <param name="Rewriter">The forwarding rules, bound to the client and pointed at each batch's destination.</param>
/// <param name="Limits">The limits the client's request heads were parsed with.</param>
/// <param name="Response">Where its responses go.</param>
/// <param name="Body">Where a request body still to be read comes from.</param>
/// <param name="RemoteEndPoint">The client's address and port.</param>
/// <param name="LocalEndPoint">The address and port the client connected to.</param>
/// <param name="ConnectionId">The client connection's id.</param>
/// <param name="Upgrades">The protocols a <c>101</c> may switch to, to check the destination's answer to an upgrade request.</param>
/// <param name="ClientTransport">The client connection's pipes, for a forwarder that relays a tunnel itself (YARP).</param>
/// <param name="Tunnel">The client connection's tunnel activity, for the same.</param>
/// <param name="ProxyHeader">The TLVs of the PROXY protocol header the client connection arrived with; null when its listener does not accept one.</param>
internal sealed record ForwarderContext(
    RequestRewriter Rewriter,
    RequestLimits Limits,
    ClientResponseWriter Response,
    ClientRequestBody Body,
    EndPoint? RemoteEndPoint,
    EndPoint? LocalEndPoint,
    string ConnectionId,
    UpgradeProtocols Upgrades,
    IDuplexPipe ClientTransport,
    TunnelActivity Tunnel,
    ProxyHeaderFeature? ProxyHeader);
