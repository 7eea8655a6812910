namespace LLRP.Diagnostics;

internal static class RejectionReasonExtensions
{
    public static string Describe(this RejectionReason reason) => reason switch
    {
        RejectionReason.InvalidRequestLine => "malformed request line",
        RejectionReason.InvalidMethod => "invalid method token",
        RejectionReason.InvalidRequestTarget => "invalid request target",
        RejectionReason.InvalidVersion => "malformed HTTP version",
        RejectionReason.UnsupportedVersion => "only HTTP/1.0 and HTTP/1.1 are supported",
        RejectionReason.UnsupportedMethod => "CONNECT is not supported",
        RejectionReason.AsteriskFormNotForwarded => "this mode's client cannot send an asterisk-form request target (OPTIONS *)",
        RejectionReason.RequestLineTooLong => "request line too long",
        RejectionReason.MethodTooLong => "method longer than any supported",
        RejectionReason.HeadersTooLarge => "header section too large",
        RejectionReason.TooManyHeaders => "too many header fields",
        RejectionReason.BareLineFeed => "line not terminated by CRLF",
        RejectionReason.InvalidFieldName => "invalid header field name",
        RejectionReason.WhitespaceBeforeColon => "whitespace between field name and colon",
        RejectionReason.ObsoleteLineFolding => "obsolete line folding",
        RejectionReason.InvalidFieldValue => "invalid character in header field value",
        RejectionReason.MissingHost => "missing Host header field",
        RejectionReason.DuplicateHost => "more than one Host header field",
        RejectionReason.InvalidHost => "invalid Host (uri-host [ \":\" port ])",
        RejectionReason.InvalidContentLength => "invalid Content-Length",
        RejectionReason.InvalidTransferEncoding => "chunked must be the final and only once applied transfer coding",
        RejectionReason.UnsupportedTransferCoding => "unsupported transfer coding",
        RejectionReason.ContentLengthWithTransferEncoding => "both Content-Length and Transfer-Encoding",
        RejectionReason.TransferEncodingOnHttp10 => "Transfer-Encoding in an HTTP/1.0 message",
        RejectionReason.BodyTooLarge => "request body too large",
        RejectionReason.InvalidChunkSize => "invalid chunk size",
        RejectionReason.InvalidChunkExtension => "invalid chunk extension",
        RejectionReason.ChunkLineTooLong => "chunk line too long",
        RejectionReason.MissingChunkTerminator => "chunk data not followed by CRLF",
        RejectionReason.InvalidTrailer => "invalid trailer section",
        RejectionReason.UnexpectedEndOfBody => "connection closed before the end of the body",
        RejectionReason.InvalidStatusLine => "malformed status line",
        RejectionReason.DotSegmentInPath => "'.' or '..' path segment: routes are chosen by path, so the path must be sent resolved (RFC 3986 section 5.2.4)",
    };
}
