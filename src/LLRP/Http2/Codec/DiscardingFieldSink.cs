namespace LLRP.Http2.Codec;

/// <summary>Takes the fields of a header block that is decoded only to keep the HPACK dynamic table in step (a refused stream's).</summary>
internal readonly struct DiscardingFieldSink : IHeaderSink
{
    public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
    }
}
