using LLRP.Diagnostics;
using LLRP.Routing;
using LLRP.Tcp.Splice;

namespace LLRP.Tcp;

/// <summary>What every TCP route's connections share.</summary>
/// <param name="Router">The current table, where each connection finds its route and cluster.</param>
/// <param name="Routing">Connect failures, retries and ejections are counted and logged here.</param>
/// <param name="Metrics">The TCP front end's instruments.</param>
/// <param name="Connector">Opens upstream connections.</param>
/// <param name="Relays">The idle timeouts' heartbeat.</param>
/// <param name="AccessLog">One line per connection; null when the access log is off.</param>
/// <param name="Log">Refused PROXY protocol headers are logged here.</param>
/// <param name="Pipes">The spliced relays' pipes.</param>
internal sealed record TcpServices(Router Router, RoutingServices Routing, TcpMetrics Metrics, TcpUpstreamConnector Connector, TcpRelayTracker Relays, TcpAccessLog? AccessLog, TcpLog Log, SplicePipePool Pipes);
