namespace LLRP.Diagnostics;

/// <summary>Why a message was rejected. <see cref="RejectionReasonExtensions"/> maps each to a status code and a one-line explanation.</summary>
internal enum RejectionReason : byte
{
    InvalidRequestLine,
    InvalidMethod,
    InvalidRequestTarget,
    InvalidVersion,
    UnsupportedVersion,
    UnsupportedMethod,
    AsteriskFormNotForwarded,
    RequestLineTooLong,
    MethodTooLong,
    HeadersTooLarge,
    TooManyHeaders,
    BareLineFeed,
    InvalidFieldName,
    WhitespaceBeforeColon,
    ObsoleteLineFolding,
    InvalidFieldValue,
    MissingHost,
    DuplicateHost,
    InvalidHost,
    InvalidContentLength,
    InvalidTransferEncoding,
    UnsupportedTransferCoding,
    ContentLengthWithTransferEncoding,
    TransferEncodingOnHttp10,
    BodyTooLarge,
    InvalidChunkSize,
    InvalidChunkExtension,
    ChunkLineTooLong,
    MissingChunkTerminator,
    InvalidTrailer,
    UnexpectedEndOfBody,
    InvalidStatusLine,

    /// <summary>
    /// A <c>.</c> or <c>..</c> path segment (RFC 3986 §3.3, §5.2.4), plain or percent-encoded, where routes depend on the
    /// path: the origin would resolve it to a path other than the one routed.
    /// </summary>
    DotSegmentInPath,
}
