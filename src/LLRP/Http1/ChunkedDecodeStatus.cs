namespace LLRP.Http1;

internal enum ChunkedDecodeStatus : byte
{
    /// <summary>Chunk data was returned; write it and call again with the rest of the input.</summary>
    Data,

    /// <summary>All input was consumed and the body is not finished.</summary>
    NeedMoreData,

    /// <summary>The last chunk and the trailer section were consumed.</summary>
    Completed,

    /// <summary>
    /// The last chunk was consumed and the trailer section (RFC 9112 §7.1.2) starts where the input was consumed to; only
    /// from a decoder that yields it, whose caller parses the section itself.
    /// </summary>
    TrailerSection,
}
