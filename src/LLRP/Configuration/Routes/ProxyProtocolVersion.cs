namespace LLRP.Configuration.Routes;

/// <summary>The PROXY protocol header (HAProxy's proxy-protocol.txt) a cluster's upstream connections start with.</summary>
public enum ProxyProtocolVersion
{
    /// <summary>No header: the destination sees the proxy's address.</summary>
    None,

    /// <summary>The human-readable header (section 2.1): <c>PROXY TCP4 src dst sport dport\r\n</c>.</summary>
    V1,

    /// <summary>The binary header (section 2.2).</summary>
    V2,
}
