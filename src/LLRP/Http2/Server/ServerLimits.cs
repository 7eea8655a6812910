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
    /// Streams a client may reset (or have refused) before it has had as many answered (the "rapid reset" attack,
    /// CVE-2023-44487): each reset or refused stream takes a credit, each stream answered gives one back, up to this many;
    /// with none left the connection is closed with ENHANCE_YOUR_CALM. Counted in streams, not time, so a busy machine
    /// changes nothing.
    /// </summary>
    public int MaxResetCredit => Math.Max(200, 2 * MaxConcurrentStreams);

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
