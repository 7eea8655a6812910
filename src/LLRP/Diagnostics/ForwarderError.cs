namespace LLRP.Diagnostics;

/// <summary>Where forwarding failed, on which side. Returned (never thrown past the forwarder), reported once, mapped to a status or an abort.</summary>
internal enum ForwarderError : byte
{
    None,

    /// <summary>The upstream connection could not be opened (refused, unreachable, name not resolved): 502.</summary>
    ConnectFailed,

    /// <summary>The upstream connection was not established within the connect timeout: 504.</summary>
    ConnectTimeout,

    /// <summary>The TLS handshake with an <c>https</c> destination failed (certificate not trusted or not for its name, no common protocol, closed): 502.</summary>
    TlsHandshakeFailed,

    /// <summary>Sending the request upstream failed: 502.</summary>
    RequestFailed,

    /// <summary>The upstream closed the connection before sending any byte of the response: 502, or a retry where that is safe.</summary>
    UpstreamClosed,

    /// <summary>No response head within the response headers timeout: 504.</summary>
    ResponseTimeout,

    /// <summary>The response head was malformed, ambiguous or not allowed: 502.</summary>
    InvalidResponse,

    /// <summary>The response body failed after its head was sent: the client connection is aborted.</summary>
    ResponseBodyFailed,

    /// <summary>The client went away.</summary>
    ClientAborted,

    /// <summary>Every destination is ejected or probed down: 503 with <c>Retry-After</c>.</summary>
    NoHealthyDestination,

    /// <summary>The destination is at <c>limits.maxConnectionsPerDestination</c> and its queue is full: 503.</summary>
    QueueFull,

    /// <summary>The request waited <c>limits.queueTimeoutMs</c> for a slot of the destination's limit: 503.</summary>
    QueueTimeout,

    /// <summary>No route takes the request: 404.</summary>
    NoRoute,

    /// <summary>The destination a request's affinity names is not available and the cluster's failure policy is <c>Return503Error</c>: 503.</summary>
    AffinityDestinationUnavailable,
}
