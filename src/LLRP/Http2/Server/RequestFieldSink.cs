using LLRP.Http2.Codec;

namespace LLRP.Http2.Server;

/// <summary>Hands each field the HPACK decoder yields to its stream, as a header or, after the body, as a trailer.</summary>
internal readonly struct RequestFieldSink(Http2Stream stream, bool trailers) : IHeaderSink
{
    public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        if (trailers)
        {
            stream.AddTrailer(name, value);
        }
        else
        {
            stream.AddField(name, value);
        }
    }
}
