namespace LLRP.Http2.Codec;

/// <summary>
/// Decodes Huffman-coded string literals (RFC 7541 §5.2) four bits at a time. The states are the 256 inner nodes of the
/// code's tree (<see cref="HuffmanCode"/>); for each state and nibble a table built once gives the next state and the
/// symbol completed on the way, if any (codes are at least 5 bits, so a nibble completes at most one).
/// </summary>
internal static class HuffmanDecoder
{
    private const int StateCount = 256;
    private const uint EmitsSymbol = 1 << 16;
    private const uint DecodesEos = 1 << 17;

    /// <summary>Per state and nibble: next state (bits 0-7), symbol (bits 8-15), <see cref="EmitsSymbol"/>, <see cref="DecodesEos"/>.</summary>
    private static readonly uint[] Transitions = new uint[StateCount * 16];

    /// <summary>
    /// Per state: whether a string may end there. RFC 7541 §5.2: padding is the most significant bits of EOS (all ones)
    /// and "padding strictly longer than 7 bits MUST be treated as a decoding error".
    /// </summary>
    private static readonly bool[] Accepting = new bool[StateCount];

    static HuffmanDecoder()
    {
        // Children of inner node n at [2n] (bit 0) and [2n + 1] (bit 1): > 0 an inner node, < 0 the leaf of symbol -(c + 1).
        var children = new int[StateCount * 2];
        var depth = new int[StateCount];
        var allOnes = new bool[StateCount];
        allOnes[0] = true;
        var nodes = 1;
        var codes = HuffmanCode.Codes();
        for (var symbol = 0; symbol < HuffmanCode.SymbolCount; symbol++)
        {
            var node = 0;
            for (var bit = HuffmanCode.Length(symbol) - 1; bit > 0; bit--)
            {
                var one = (codes[symbol] >> bit & 1) == 1;
                ref var child = ref children[node * 2 + (one ? 1 : 0)];
                if (child == 0)
                {
                    child = nodes++;
                    depth[child] = depth[node] + 1;
                    allOnes[child] = allOnes[node] && one;
                }

                node = child;
            }

            children[node * 2 + (int)(codes[symbol] & 1)] = -(symbol + 1);
        }

        for (var state = 0; state < StateCount; state++)
        {
            Accepting[state] = allOnes[state] && depth[state] <= 7;
            for (var nibble = 0; nibble < 16; nibble++)
            {
                var node = state;
                var entry = 0u;
                for (var bit = 3; bit >= 0; bit--)
                {
                    var child = children[node * 2 + (nibble >> bit & 1)];
                    if (child > 0)
                    {
                        node = child;
                        continue;
                    }

                    var symbol = -child - 1;
                    entry |= symbol == HuffmanCode.Eos ? DecodesEos : EmitsSymbol | (uint)symbol << 8;
                    node = 0;
                }

                Transitions[state * 16 + nibble] = entry | (uint)node;
            }
        }
    }

    /// <summary>The most bytes <paramref name="encodedLength"/> bytes can decode to: the shortest code is 5 bits.</summary>
    public static int MaxDecodedLength(int encodedLength) => (int)((long)encodedLength * 8 / 5);

    /// <summary>
    /// Decodes <paramref name="source"/> into <paramref name="destination"/> (at least <see cref="MaxDecodedLength"/>
    /// bytes) and returns the bytes written. EOS in the string, padding longer than 7 bits or not all ones are errors.
    /// </summary>
    public static int Decode(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        var transitions = Transitions;
        var state = 0u;
        var written = 0;
        foreach (var value in source)
        {
            var entry = transitions[state << 4 | (uint)value >> 4];
            if ((entry & (EmitsSymbol | DecodesEos)) != 0)
            {
                written = Emit(entry, destination, written);
            }

            entry = transitions[(entry & 0xFF) << 4 | (uint)value & 0xF];
            if ((entry & (EmitsSymbol | DecodesEos)) != 0)
            {
                written = Emit(entry, destination, written);
            }

            state = entry & 0xFF;
        }

        if (!Accepting[state])
        {
            HpackDecodingException.Throw("A Huffman-coded string ends with padding longer than 7 bits or not all ones (RFC 7541 §5.2).");
        }

        return written;
    }

    private static int Emit(uint entry, Span<byte> destination, int written)
    {
        if ((entry & DecodesEos) != 0)
        {
            HpackDecodingException.Throw("A Huffman-coded string contains EOS (RFC 7541 §5.2).");
        }

        destination[written] = (byte)(entry >> 8);
        return written + 1;
    }
}
