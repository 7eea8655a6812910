namespace LLRP.Configuration;

/// <summary>
/// The HTTP/2 front end's limits, given to Kestrel's HTTP/2 server (<c>Http2Limits</c>) and announced to clients in its
/// SETTINGS (RFC 9113 §6.5.2). The header list size is <c>limits.maxRequestHeadersTotalSize</c>, as on HTTP/1.1.
/// Defaults are Kestrel's own.
/// </summary>
/// <param name="MaxConcurrentStreams">Key <c>limits.http2.maxConcurrentStreams</c>: streams a client may have open at once; more are refused (REFUSED_STREAM).</param>
/// <param name="MaxHeaderFieldSize">Key <c>limits.http2.maxHeaderFieldSize</c>: the largest decoded field (name and value).</param>
/// <param name="MaxFrameSize">Key <c>limits.http2.maxFrameSize</c>: the largest frame payload a client may send (RFC 9113 §4.2: 2^14 to 2^24-1).</param>
/// <param name="InitialConnectionWindowSize">Key <c>limits.http2.initialConnectionWindowSize</c>: request body bytes buffered per connection before flow control waits.</param>
/// <param name="InitialStreamWindowSize">Key <c>limits.http2.initialStreamWindowSize</c>: request body bytes buffered per stream before flow control waits.</param>
public sealed record Http2Settings(int MaxConcurrentStreams, int MaxHeaderFieldSize, int MaxFrameSize, int InitialConnectionWindowSize, int InitialStreamWindowSize)
{
    /// <summary>RFC 9113 §4.2: the smallest frame size limit, and the initial one.</summary>
    public const int MinFrameSize = 16 * 1024;

    /// <summary>RFC 9113 §4.2: the largest frame size limit.</summary>
    public const int MaxFrameSizeLimit = (1 << 24) - 1;

    /// <summary>RFC 9113 §6.9.2: the initial window, and the smallest Kestrel takes.</summary>
    public const int MinWindowSize = 65_535;

    /// <summary>Kestrel's defaults.</summary>
    public static Http2Settings Default { get; } = new(100, 16 * 1024, MinFrameSize, 1024 * 1024, 768 * 1024);
}
