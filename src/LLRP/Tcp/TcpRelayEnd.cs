namespace LLRP.Tcp;

/// <summary>How a relayed TCP connection ended, as its access log line says (<see cref="TcpAccessLog.Word"/>).</summary>
internal enum TcpRelayEnd
{
    /// <summary>Both sides closed their sending side (each half-close passed on).</summary>
    Closed,

    /// <summary>The client reset its connection; the upstream connection was reset too.</summary>
    ClientReset,

    /// <summary>The destination reset its connection; the client connection was reset too.</summary>
    UpstreamReset,

    /// <summary>No byte either way for the route's <c>IdleTimeout</c>: both sides closed.</summary>
    IdleTimeout,

    /// <summary>The proxy stopped and aborted it after <c>shutdownTimeoutMs</c>.</summary>
    Aborted,

    /// <summary>Refused unrelayed: the route had <c>MaxConnections</c> open.</summary>
    RouteLimit,

    /// <summary>Refused unrelayed: no destination could be connected to (failed, timed out, none available, or at its limit).</summary>
    NoUpstream,
}
