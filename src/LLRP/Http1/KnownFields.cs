using System.Text;

namespace LLRP.Http1;

/// <summary>Maps a field name to the <see cref="FieldKind"/> a proxy treats specially (case-insensitive, RFC 9110 §5.1).</summary>
internal static class KnownFields
{
    public static FieldKind Classify(ReadOnlySpan<byte> name) => name.Length switch
    {
        2 when Ascii.EqualsIgnoreCase(name, "te"u8) => FieldKind.TE,
        3 when Ascii.EqualsIgnoreCase(name, "via"u8) => FieldKind.Via,
        4 when Ascii.EqualsIgnoreCase(name, "host"u8) => FieldKind.Host,
        6 when Ascii.EqualsIgnoreCase(name, "expect"u8) => FieldKind.Expect,
        7 when Ascii.EqualsIgnoreCase(name, "upgrade"u8) => FieldKind.Upgrade,
        7 when Ascii.EqualsIgnoreCase(name, "trailer"u8) => FieldKind.Trailer,
        10 when Ascii.EqualsIgnoreCase(name, "connection"u8) => FieldKind.Connection,
        10 when Ascii.EqualsIgnoreCase(name, "keep-alive"u8) => FieldKind.KeepAlive,
        14 when Ascii.EqualsIgnoreCase(name, "content-length"u8) => FieldKind.ContentLength,
        15 when Ascii.EqualsIgnoreCase(name, "x-forwarded-for"u8) => FieldKind.XForwardedFor,
        16 when Ascii.EqualsIgnoreCase(name, "x-forwarded-host"u8) => FieldKind.XForwardedHost,
        16 when Ascii.EqualsIgnoreCase(name, "proxy-connection"u8) => FieldKind.ProxyConnection,
        17 when Ascii.EqualsIgnoreCase(name, "transfer-encoding"u8) => FieldKind.TransferEncoding,
        17 when Ascii.EqualsIgnoreCase(name, "x-forwarded-proto"u8) => FieldKind.XForwardedProto,
        _ => FieldKind.Other,
    };

    /// <summary>Fields never forwarded as received: hop-by-hop (RFC 9110 §7.6.1) or re-computed framing (RFC 9112 §6).</summary>
    public static bool IsHopByHop(FieldKind kind) => kind is FieldKind.Connection or FieldKind.KeepAlive
        or FieldKind.ProxyConnection or FieldKind.TE or FieldKind.Upgrade or FieldKind.TransferEncoding
        or FieldKind.NamedByConnection;
}
