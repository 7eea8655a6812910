namespace LLRP.ProxyProtocol;

/// <summary>
/// Set on a connection of a listener that accepts the PROXY protocol once its header is read: the ALPN and authority TLVs
/// it carried (v2, section 2.2.1), which the access log writes and a cluster's v2 header passes on.
/// </summary>
/// <param name="Alpn">PP2_TYPE_ALPN, as ASCII; null without.</param>
/// <param name="Authority">PP2_TYPE_AUTHORITY, as ASCII; null without.</param>
internal sealed record ProxyHeaderFeature(string? Alpn, string? Authority);
