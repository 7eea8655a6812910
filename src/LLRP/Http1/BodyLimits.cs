namespace LLRP.Http1;

/// <summary>The limits applied while reading a message body.</summary>
/// <param name="MaxBodySize">Largest body, decoded; 0 = unlimited.</param>
/// <param name="MaxChunkLineSize">Longest chunk-size line, extensions included.</param>
/// <param name="MaxTrailerSize">Largest trailer section.</param>
internal readonly record struct BodyLimits(long MaxBodySize, int MaxChunkLineSize, int MaxTrailerSize)
{
    public ChunkedDecoder NewChunkedDecoder() => new(MaxChunkLineSize, MaxTrailerSize);

    /// <summary>True when <paramref name="length"/> bytes of body are over the limit.</summary>
    public bool Exceeded(long length) => MaxBodySize > 0 && length > MaxBodySize;
}
