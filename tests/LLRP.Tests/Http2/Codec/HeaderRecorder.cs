using LLRP.Http2.Codec;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http2.Codec;

/// <summary>Records the fields a decoder gives it as <c>name: value</c> strings, in order.</summary>
internal sealed class HeaderRecorder : IHeaderSink
{
    public List<string> Fields { get; } = [];

    public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value) => Fields.Add($"{Text.Of(name)}: {Text.Of(value)}");
}
