using LLRP.Http2.Codec;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http2.Codec;

/// <summary>Helpers for HPACK tests: decoding hex blocks, table contents.</summary>
internal static class Hpack
{
    public static List<string> Decode(HpackDecoder decoder, string hex)
    {
        var recorder = new HeaderRecorder();
        decoder.Decode(HexBytes.Parse(hex), recorder);
        return recorder.Fields;
    }

    /// <summary>The dynamic table's entries, newest (index 1) first, as <c>name: value</c>.</summary>
    public static List<string> Entries(HpackDynamicTable table)
        => [.. Enumerable.Range(1, table.Count).Select(i => $"{Text.Of(table.Name(i))}: {Text.Of(table.Value(i))}")];
}
