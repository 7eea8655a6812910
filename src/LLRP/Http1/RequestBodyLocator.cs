using LLRP.Diagnostics;

namespace LLRP.Http1;

/// <summary>Finds where the body of a parsed request is (RFC 9112 §6.3): none, all in the buffer already, or to be read.</summary>
internal static class RequestBodyLocator
{
    /// <summary>
    /// A Content-Length body is buffered when all its bytes are in the <paramref name="bufferedAfterHead"/> bytes read after the head. A chunked body is always
    /// read as it comes, decoded once (its length is only known at its end). Throws when the declared length is over <paramref name="limits"/>.
    /// </summary>
    /// <param name="bodyLength">The buffered body's length.</param>
    public static BodyKind Locate(RequestHead head, long bufferedAfterHead, in BodyLimits limits, out long bodyLength)
    {
        bodyLength = 0;
        switch (head.Framing)
        {
            case BodyFraming.ContentLength:
                if (limits.Exceeded(head.ContentLength))
                {
                    HttpMessageException.Throw(RejectionReason.BodyTooLarge);
                }

                if (bufferedAfterHead < head.ContentLength)
                {
                    return BodyKind.Streaming;
                }

                bodyLength = head.ContentLength;
                return BodyKind.Buffered;
            case BodyFraming.Chunked:
                return BodyKind.Streaming;
            default:
                return BodyKind.None;
        }
    }
}
