using System.Buffers;

namespace LLRP.Http2.Codec;

/// <summary>
/// HPACK (RFC 7541) for responses, stateless: nothing is added to the dynamic table, so no size update is ever needed.
/// <c>:status</c> is an indexed static entry (8 to 14) where one exists, else a literal with the static name index 8;
/// every other field is a literal without indexing (§6.2.2), naming its static-table index when the name is in
/// Appendix A, else the name itself; values raw (no Huffman): cheap and legal.
/// </summary>
internal static class HpackEncoder
{
    /// <summary>§6.2.2: literal header field without indexing, 4-bit name index prefix.</summary>
    private const byte WithoutIndexing = 0x00;

    /// <summary>§6.1: indexed header field, 7-bit index prefix.</summary>
    private const byte Indexed = 0x80;

    private const int StatusNameIndex = 8;

    public static void EncodeStatus(IBufferWriter<byte> output, int status)
    {
        var index = status switch
        {
            200 => 8,
            204 => 9,
            206 => 10,
            304 => 11,
            400 => 12,
            404 => 13,
            500 => 14,
            _ => 0,
        };
        if (index != 0)
        {
            HpackInteger.Write(output, Indexed, 7, index);
            return;
        }

        Span<byte> digits = stackalloc byte[3];
        digits[0] = (byte)('0' + (status / 100 % 10));
        digits[1] = (byte)('0' + (status / 10 % 10));
        digits[2] = (byte)('0' + (status % 10));
        HpackInteger.Write(output, WithoutIndexing, 4, StatusNameIndex);
        WriteString(output, digits);
    }

    /// <param name="name">The field name, lowercase (RFC 9113 §8.2.1: uppercase is written lowercase).</param>
    public static void EncodeField(IBufferWriter<byte> output, ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        var index = HpackStaticTable.IndexOfName(name);
        HpackInteger.Write(output, WithoutIndexing, 4, index);
        if (index == 0)
        {
            HpackInteger.Write(output, 0x00, 7, name.Length);
            var span = output.GetSpan(name.Length);
            for (var i = 0; i < name.Length; i++)
            {
                span[i] = name[i] is >= (byte)'A' and <= (byte)'Z' ? (byte)(name[i] | 0x20) : name[i];
            }

            output.Advance(name.Length);
        }

        WriteString(output, value);
    }

    /// <summary>§5.2: a string literal, raw (H = 0).</summary>
    private static void WriteString(IBufferWriter<byte> output, ReadOnlySpan<byte> value)
    {
        HpackInteger.Write(output, 0x00, 7, value.Length);
        output.Write(value);
    }
}
