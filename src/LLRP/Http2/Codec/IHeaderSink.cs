namespace LLRP.Http2.Codec;

/// <summary>
/// Receives the fields of a field block from <see cref="HpackDecoder"/>, one by one, in order. The spans are valid only
/// during the call: they point into the block, the decoder's buffer or its dynamic table.
/// </summary>
internal interface IHeaderSink
{
    void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value);
}
