namespace LLRP.Http2.Codec;

/// <summary>
/// The HPACK Huffman code (RFC 7541 Appendix B). The code is canonical: ordered by length then by symbol, each code is
/// the previous one plus one, shifted left by the growth in length. So the lengths alone define it; the codes are
/// derived from them here (RFC 7541 Appendix B lists both; HuffmanCodeTests checks the derived ones against it).
/// </summary>
internal static class HuffmanCode
{
    /// <summary>The end-of-string symbol: 30 one-bits, never valid inside a string (RFC 7541 §5.2).</summary>
    public const int Eos = 256;

    public const int SymbolCount = 257;

    /// <summary>The code length in bits of each symbol 0 to 256 (EOS), from RFC 7541 Appendix B.</summary>
    private static ReadOnlySpan<byte> Lengths =>
    [
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
        30,
    ];

    /// <summary>The length in bits of <paramref name="symbol"/>'s code.</summary>
    public static int Length(int symbol) => Lengths[symbol];

    /// <summary>Every symbol's code, right-aligned, derived from the lengths (canonical order: length, then symbol).</summary>
    public static uint[] Codes()
    {
        var symbols = new int[SymbolCount];
        for (var i = 0; i < SymbolCount; i++)
        {
            symbols[i] = i;
        }

        Array.Sort(symbols, (a, b) => Lengths[a] != Lengths[b] ? Lengths[a] - Lengths[b] : a - b);
        var codes = new uint[SymbolCount];
        var code = 0u;
        for (var i = 1; i < SymbolCount; i++)
        {
            code = (code + 1) << (Lengths[symbols[i]] - Lengths[symbols[i - 1]]);
            codes[symbols[i]] = code;
        }

        return codes;
    }
}
