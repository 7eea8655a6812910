using LLRP.Http2.Codec;

namespace LLRP.Tests.Http2.Codec;

/// <summary>Huffman-codes strings (RFC 7541 §5.2) to feed the decoder, padding with the most significant bits of EOS.</summary>
internal static class HuffmanTestEncoder
{
    private static readonly uint[] Codes = HuffmanCode.Codes();

    public static byte[] Encode(ReadOnlySpan<byte> value) => EncodeSymbols([.. value.ToArray().Select(b => (int)b)], paddingBits: null);

    /// <summary>Codes <paramref name="symbols"/> (256 is EOS), then pads to a byte with ones, or with <paramref name="paddingBits"/> as given.</summary>
    public static byte[] EncodeSymbols(int[] symbols, (ulong Bits, int Count)? paddingBits)
    {
        var bits = new List<bool>();
        foreach (var symbol in symbols)
        {
            for (var bit = HuffmanCode.Length(symbol) - 1; bit >= 0; bit--)
            {
                bits.Add((Codes[symbol] >> bit & 1) == 1);
            }
        }

        if (paddingBits is var (padding, count))
        {
            for (var bit = count - 1; bit >= 0; bit--)
            {
                bits.Add((padding >> bit & 1) == 1);
            }
        }

        while (bits.Count % 8 != 0)
        {
            bits.Add(true);
        }

        var bytes = new byte[bits.Count / 8];
        for (var i = 0; i < bits.Count; i++)
        {
            if (bits[i])
            {
                bytes[i / 8] |= (byte)(0x80 >> (i % 8));
            }
        }

        return bytes;
    }
}
