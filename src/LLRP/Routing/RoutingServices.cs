using LLRP.Diagnostics;

namespace LLRP.Routing;

/// <summary>What the routing of every client connection shares.</summary>
/// <param name="Metrics">Retries, destination failures and ejections are counted here.</param>
/// <param name="FailureLog">Ejections are logged here.</param>
/// <param name="RetryUnsentAnyMethod">
/// <c>retries.unsentAnyMethod</c>: a request that was never sent (the connect or the TLS handshake failed) goes to another
/// destination whatever its method, as nginx and HAProxy do.
/// </param>
internal sealed record RoutingServices(ProxyMetrics Metrics, FailureLog FailureLog, bool RetryUnsentAnyMethod);
