namespace LLRP.Http2;

/// <summary>
/// A request's head as HTTP/1.1 bytes, written by the HTTP/2 server from the decoded fields as they came (LLRP's own
/// server offers it; Kestrel's does not), so <see cref="RenderedRequestHead"/> parses them with no strings made in
/// between. The server has refused a connection-specific field itself (RFC 9113 §8.2.2).
/// </summary>
internal interface IRequestHeadBytesFeature
{
    /// <summary>
    /// The request line, the field lines and the empty line; false once the request's method, target or fields were
    /// replaced or read as strings, which are then what the head is rendered from. Valid until the request ends.
    /// </summary>
    bool TryGetHead(out ReadOnlyMemory<byte> head);
}
