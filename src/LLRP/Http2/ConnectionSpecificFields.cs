using Microsoft.AspNetCore.Http;

namespace LLRP.Http2;

/// <summary>
/// RFC 9113 §8.2.2: an HTTP/2 request carrying a connection-specific field is malformed, and the proxy must not forward
/// it (§8.1.1). LLRP's own HTTP/2 server refuses them all itself; Kestrel's refuses <c>connection</c> and a <c>te</c> other
/// than <c>trailers</c> (a connection error); these are the rest, which it passes on, refused here as a stream error.
/// </summary>
internal static class ConnectionSpecificFields
{
    /// <summary>The HTTP/2 error code PROTOCOL_ERROR (RFC 9113 §7), the stream error's.</summary>
    public const int ProtocolError = 0x1;

    public static bool In(IHeaderDictionary headers)
        => headers.ContainsKey("Keep-Alive") || headers.ContainsKey("Proxy-Connection") || headers.ContainsKey("Transfer-Encoding")
           || headers.ContainsKey("Upgrade");
}
