namespace LLRP.Http1;

internal enum ChunkedDecodeStatus : byte
{
    /// <summary>Chunk data was returned; write it and call again with the rest of the input.</summary>
    Data,

    /// <summary>All input was consumed and the body is not finished.</summary>
    NeedMoreData,

    /// <summary>The last chunk and the trailer section were consumed.</summary>
    Completed,
}
