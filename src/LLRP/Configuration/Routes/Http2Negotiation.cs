namespace LLRP.Configuration.Routes;

/// <summary>How HTTP/2 is asked of a cluster's destination (<see cref="ClusterOptions.Http2NegotiationWith"/>).</summary>
public enum Http2Negotiation
{
    /// <summary>HTTP/2 is not asked: HTTP/1.1 is spoken.</summary>
    None,

    /// <summary>Over plain TCP, the connection preface at once (RFC 9113 §3.3).</summary>
    PriorKnowledge,

    /// <summary>Over TLS, ALPN offers <c>h2</c> only (RFC 9113 §3.2): a destination that does not choose it fails.</summary>
    AlpnH2,

    /// <summary>Over TLS, ALPN offers <c>h2</c> then <c>http/1.1</c>: a destination that chooses <c>http/1.1</c> is spoken to at HTTP/1.1.</summary>
    AlpnH2OrHttp11,
}
