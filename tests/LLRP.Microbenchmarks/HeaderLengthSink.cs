using LLRP.Http2.Codec;

namespace LLRP.Microbenchmarks;

/// <summary>Adds up the fields' lengths into the caller's counter: a sink that costs nothing but the call.</summary>
internal ref struct HeaderLengthSink(ref int total) : IHeaderSink
{
    private ref int _total = ref total;

    public readonly void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value) => _total += name.Length + value.Length;
}
