namespace LLRP.Http1;

/// <summary>The header fields a proxy has to understand; everything else is <see cref="Other"/> and passes through.</summary>
internal enum FieldKind : byte
{
    Other,
    Host,
    ContentLength,
    TransferEncoding,
    Connection,
    KeepAlive,
    ProxyConnection,
    TE,
    Upgrade,
    Trailer,
    Expect,
    Via,
    XForwardedFor,
    XForwardedProto,
    XForwardedHost,

    /// <summary>Named in a <c>Connection</c> field, so hop-by-hop for this message (RFC 9110 §7.6.1).</summary>
    NamedByConnection,
}
