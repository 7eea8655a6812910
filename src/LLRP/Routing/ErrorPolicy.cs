using LLRP.Diagnostics;

namespace LLRP.Routing;

/// <summary>
/// What every error value means, decided once for every front end and mode: its status code, whether the request may go
/// to another destination, whether it counts against the destination's passive health, and whether it is logged. Each
/// switch lists every value and has no default arm, so a new value does not compile until it is decided here.
/// </summary>
internal static class ErrorPolicy
{
    /// <summary>The status answered before a response started; 0 when none is owed (no failure, or the client is gone).</summary>
    public static int StatusCode(ForwarderError error) => error switch
    {
        ForwarderError.None or ForwarderError.ClientAborted or ForwarderError.ResponseBodyFailed => 0,
        ForwarderError.ConnectFailed or ForwarderError.TlsHandshakeFailed or ForwarderError.RequestFailed
            or ForwarderError.UpstreamClosed or ForwarderError.InvalidResponse => 502,
        ForwarderError.ConnectTimeout or ForwarderError.ResponseTimeout => 504,
        ForwarderError.NoHealthyDestination or ForwarderError.QueueFull or ForwarderError.QueueTimeout
            or ForwarderError.AffinityDestinationUnavailable => 503,
        ForwarderError.NoRoute => 404,
    };

    /// <summary>Which requests may go to another destination after this failure, when nothing of the response reached the client.</summary>
    public static RetryScope Retry(ForwarderError error) => error switch
    {
        ForwarderError.ConnectFailed or ForwarderError.ConnectTimeout or ForwarderError.TlsHandshakeFailed => RetryScope.Unsent,
        ForwarderError.UpstreamClosed => RetryScope.Idempotent,
        ForwarderError.None or ForwarderError.RequestFailed or ForwarderError.ResponseTimeout or ForwarderError.InvalidResponse
            or ForwarderError.ResponseBodyFailed or ForwarderError.ClientAborted or ForwarderError.NoHealthyDestination
            or ForwarderError.QueueFull or ForwarderError.QueueTimeout or ForwarderError.NoRoute
            or ForwarderError.AffinityDestinationUnavailable => RetryScope.Never,
    };

    /// <summary>The failure is the destination's transport failing, so it counts against the destination's passive health.</summary>
    public static bool CountsAgainstHealth(ForwarderError error) => error switch
    {
        ForwarderError.ConnectFailed or ForwarderError.ConnectTimeout or ForwarderError.TlsHandshakeFailed
            or ForwarderError.RequestFailed or ForwarderError.UpstreamClosed or ForwarderError.ResponseTimeout
            or ForwarderError.InvalidResponse or ForwarderError.ResponseBodyFailed => true,
        ForwarderError.None or ForwarderError.ClientAborted or ForwarderError.NoHealthyDestination or ForwarderError.QueueFull
            or ForwarderError.QueueTimeout or ForwarderError.NoRoute or ForwarderError.AffinityDestinationUnavailable => false,
    };

    /// <summary>
    /// The failure is logged (behind the once-a-second gate) and counted in <c>llrp.forwarding.errors</c>: not the client's
    /// own leaving, and not a request that no route takes (counted in <c>llrp.requests.unrouted</c> instead).
    /// </summary>
    public static bool IsReported(ForwarderError error) => error switch
    {
        ForwarderError.None or ForwarderError.ClientAborted or ForwarderError.NoRoute => false,
        ForwarderError.ConnectFailed or ForwarderError.ConnectTimeout or ForwarderError.TlsHandshakeFailed
            or ForwarderError.RequestFailed or ForwarderError.UpstreamClosed or ForwarderError.ResponseTimeout
            or ForwarderError.InvalidResponse or ForwarderError.ResponseBodyFailed or ForwarderError.NoHealthyDestination
            or ForwarderError.QueueFull or ForwarderError.QueueTimeout or ForwarderError.AffinityDestinationUnavailable => true,
    };

    /// <summary>The status a client request rejected for this reason is answered with.</summary>
    public static int StatusCode(RejectionReason reason) => reason switch
    {
        RejectionReason.RequestLineTooLong => 414,
        RejectionReason.HeadersTooLarge or RejectionReason.TooManyHeaders => 431,
        RejectionReason.UnsupportedVersion => 505,
        RejectionReason.UnsupportedMethod or RejectionReason.AsteriskFormNotForwarded or RejectionReason.MethodTooLong
            or RejectionReason.UnsupportedTransferCoding => 501,
        RejectionReason.BodyTooLarge => 413,
        RejectionReason.InvalidRequestLine or RejectionReason.InvalidMethod or RejectionReason.InvalidRequestTarget
            or RejectionReason.InvalidVersion or RejectionReason.BareLineFeed or RejectionReason.InvalidFieldName
            or RejectionReason.WhitespaceBeforeColon or RejectionReason.ObsoleteLineFolding or RejectionReason.InvalidFieldValue
            or RejectionReason.MissingHost or RejectionReason.DuplicateHost or RejectionReason.InvalidHost
            or RejectionReason.InvalidContentLength or RejectionReason.InvalidTransferEncoding
            or RejectionReason.ContentLengthWithTransferEncoding or RejectionReason.TransferEncodingOnHttp10
            or RejectionReason.InvalidChunkSize or RejectionReason.InvalidChunkExtension or RejectionReason.ChunkLineTooLong
            or RejectionReason.MissingChunkTerminator or RejectionReason.InvalidTrailer or RejectionReason.UnexpectedEndOfBody
            or RejectionReason.InvalidStatusLine or RejectionReason.DotSegmentInPath => 400,
    };
}
