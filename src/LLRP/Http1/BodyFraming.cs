namespace LLRP.Http1;

/// <summary>How a message body's length is determined (RFC 9112 §6.3).</summary>
internal enum BodyFraming : byte
{
    None,
    ContentLength,
    Chunked,

    /// <summary>Responses only: the body ends when the connection closes.</summary>
    CloseDelimited,
}
