using LLRP.Configuration;

namespace LLRP.Http2.Server;

/// <summary>
/// What LLRP's HTTP/2 server announces in its SETTINGS (RFC 9113 §6.5.2) and enforces, as plain values from the
/// <c>limits.http2.*</c> keys and the head limits and timeouts HTTP/1.1 has.
/// </summary>
internal sealed record ServerLimits(
    int MaxConcurrentStreams,
    int MaxFrameSize,
    int InitialStreamWindowSize,
    int InitialConnectionWindowSize,
    int MaxHeaderListSize,
    int MaxHeaderFieldSize,
    int MaxHeaderCount,
    long KeepAliveTimeoutMs,
    long RequestHeadersTimeoutMs)
{
    /// <summary>SETTINGS_HEADER_TABLE_SIZE: the HPACK dynamic table the client may use, RFC 7541's default (Kestrel's too).</summary>
    public const int HeaderTableSize = 4096;

    /// <summary>
    /// Streams a client may reset (or have refused) per <see cref="ResetWindowMs"/> before the connection is closed with
    /// ENHANCE_YOUR_CALM (the "rapid reset" attack, CVE-2023-44487): generous for a client cancelling its own calls, far
    /// below a flood's rate.
    /// </summary>
    public int MaxResetsPerWindow => Math.Max(200, 2 * MaxConcurrentStreams);

    public const long ResetWindowMs = 1_000;

    /// <summary>Control frames a client may have waiting for our answer (SETTINGS ACK, PING ACK) before it is a flood.</summary>
    public const int MaxPendingControlAnswers = 10_000;

    /// <summary>Empty DATA or CONTINUATION frames without their END flag in a row on one connection before it is a flood.</summary>
    public const int MaxEmptyFrames = 100;

    public static ServerLimits Of(ProxyOptions options) => new(
        options.Http2.MaxConcurrentStreams,
        options.Http2.MaxFrameSize,
        options.Http2.InitialStreamWindowSize,
        options.Http2.InitialConnectionWindowSize,
        options.MaxRequestHeadersTotalSize,
        options.Http2.MaxHeaderFieldSize,
        options.MaxRequestHeaderCount,
        (long)options.KeepAliveTimeout.TotalMilliseconds,
        (long)options.RequestHeadersTimeout.TotalMilliseconds);
}
