using System.Buffers;
using System.Text;
using LLRP.Http2.Codec;

namespace LLRP.Fuzz;

/// <summary>
/// <see cref="HpackDecoder"/> over a connection's field blocks in turn (each input byte, then that many bytes, is a block;
/// what is left is the last), so the dynamic table carries from block to block as on a connection (RFC 7541 §2.3.2). A
/// <see cref="HpackDecodingException"/> is the decoder's answer to a bad block (the connection ends there); a
/// <see cref="HeaderListTooLargeException"/> ends only its block. Checked: no other exception, the dynamic table within
/// its size, and every decoded block encoded again by <see cref="HpackEncoder"/> decodes to the same fields (names
/// lowercased, as the encoder writes them) on a fresh decoder.
/// </summary>
internal static class HpackTarget
{
    private const int TableSize = 4096;
    private const int ListSize = 16 * 1024;

    public static void Run(byte[] bytes)
    {
        var decoder = new HpackDecoder(TableSize, ListSize);
        var position = 0;
        while (position < bytes.Length)
        {
            var length = Math.Min(bytes[position], bytes.Length - position - 1);
            var block = position + 1 + length < bytes.Length ? bytes.AsSpan(position + 1, length) : bytes.AsSpan(position + 1);
            position += 1 + block.Length;
            var fields = new FieldList();
            try
            {
                decoder.Decode(block, fields);
            }
            catch (HpackDecodingException)
            {
                return;
            }
            catch (HeaderListTooLargeException)
            {
                continue;
            }

            if (decoder.DynamicTable.Size > decoder.DynamicTable.MaxSize)
            {
                throw new OracleViolation($"dynamic table at {decoder.DynamicTable.Size} bytes past its size {decoder.DynamicTable.MaxSize}");
            }

            OracleViolation.ThrowIfDifferent(fields.Describe(lowercase: true), Reencoded(fields).Describe(lowercase: false), block.Length);
        }
    }

    private static FieldList Reencoded(FieldList fields)
    {
        var output = new ArrayBufferWriter<byte>();
        foreach (var (name, value) in fields.Fields)
        {
            HpackEncoder.EncodeField(output, name, value);
        }

        var again = new FieldList();
        new HpackDecoder(TableSize, ListSize).Decode(output.WrittenSpan, again);
        return again;
    }

    /// <summary>The fields of one block, copied out of the decoder's buffers.</summary>
    private sealed class FieldList : IHeaderSink
    {
        public List<(byte[] Name, byte[] Value)> Fields { get; } = [];

        public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value) => Fields.Add((name.ToArray(), value.ToArray()));

        public string Describe(bool lowercase)
        {
            var text = new StringBuilder();
            foreach (var (name, value) in Fields)
            {
                text.Append(Convert.ToHexString(lowercase ? Lowercased(name) : name)).Append(':').Append(Convert.ToHexString(value)).Append('\n');
            }

            return text.ToString();
        }

        private static byte[] Lowercased(byte[] name) => [.. name.Select(b => b is >= (byte)'A' and <= (byte)'Z' ? (byte)(b | 0x20) : b)];
    }
}
