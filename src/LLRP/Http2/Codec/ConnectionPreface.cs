namespace LLRP.Http2.Codec;

/// <summary>What a client sends first on an HTTP/2 connection, before its SETTINGS frame (RFC 9113 §3.4).</summary>
internal static class ConnectionPreface
{
    public static ReadOnlySpan<byte> Bytes => "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8;
}
