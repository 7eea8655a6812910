using System.Buffers;
using System.Text;

namespace LLRP.Http2.Codec;

/// <summary>
/// Encodes fields with HPACK (RFC 7541) without touching the dynamic table, so it needs no state and never a
/// size update: ":status" as an indexed static entry (8 to 14) where there is one, else a literal without indexing
/// with static name index 8; other fields as literals without indexing (§6.2.2), naming the static entry when the
/// name is in Appendix A. Strings are sent raw (no Huffman, §5.2), names lowercased (RFC 9113 §8.2.1).
/// </summary>
internal static class HpackEncoder
{
    private const int StatusNameIndex = 8;

    /// <summary>Writes ":status" (RFC 9113 §8.3.2): a three-digit code, 100 to 999.</summary>
    public static void EncodeStatus(IBufferWriter<byte> output, int status)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(status, 100);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(status, 999);
        var span = output.GetSpan(5);
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
            span[0] = (byte)(0x80 | index);
            output.Advance(1);
            return;
        }

        span[0] = StatusNameIndex;
        span[1] = 3;
        span[2] = (byte)('0' + status / 100);
        span[3] = (byte)('0' + status / 10 % 10);
        span[4] = (byte)('0' + status % 10);
        output.Advance(5);
    }

    /// <summary>Writes one field as a literal without indexing (RFC 7541 §6.2.2), the name lowercased.</summary>
    public static void EncodeField(IBufferWriter<byte> output, ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        var nameIndex = HpackStaticTable.IndexOfName(name);
        var span = output.GetSpan(2 * HpackInteger.MaxLength + name.Length + value.Length);
        var written = HpackInteger.Write(span, 0x00, 4, nameIndex);
        if (nameIndex == 0)
        {
            written += HpackInteger.Write(span[written..], 0x00, 7, name.Length);
            // A-Z only, every other byte as it is: Ascii.ToLower stops at the first non-ASCII byte, which would leave the
            // name shorter than its length says.
            for (var i = 0; i < name.Length; i++)
            {
                span[written + i] = name[i] is >= (byte)'A' and <= (byte)'Z' ? (byte)(name[i] | 0x20) : name[i];
            }

            written += name.Length;
        }

        written += HpackInteger.Write(span[written..], 0x00, 7, value.Length);
        value.CopyTo(span[written..]);
        output.Advance(written + value.Length);
    }

    /// <summary>Writes one field held as strings (Latin-1), as <see cref="EncodeField(IBufferWriter{byte}, ReadOnlySpan{byte}, ReadOnlySpan{byte})"/> does.</summary>
    /// <param name="scratch">Room for the name and value bytes; a larger field rents its own.</param>
    public static void EncodeField(IBufferWriter<byte> output, string name, string value, Span<byte> scratch)
    {
        var size = name.Length + value.Length;
        var rented = size > scratch.Length ? ArrayPool<byte>.Shared.Rent(size) : null;
        var bytes = rented is null ? scratch : rented.AsSpan();
        var nameBytes = bytes[..name.Length];
        Encoding.Latin1.GetBytes(name, nameBytes);
        var valueBytes = bytes.Slice(name.Length, value.Length);
        Encoding.Latin1.GetBytes(value, valueBytes);
        EncodeField(output, nameBytes, valueBytes);
        if (rented is not null)
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }
}
