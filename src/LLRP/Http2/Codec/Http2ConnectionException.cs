namespace LLRP.Http2.Codec;

/// <summary>A connection error (RFC 9113 §5.4.1): the connection sends GOAWAY with <see cref="Code"/> and closes.</summary>
internal sealed class Http2ConnectionException(Http2ErrorCode code, string message) : Exception(message)
{
    public Http2ErrorCode Code { get; } = code;
}
