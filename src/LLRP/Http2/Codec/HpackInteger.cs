using System.Buffers;

namespace LLRP.Http2.Codec;

/// <summary>The HPACK integer representation (RFC 7541 §5.1): an N-bit prefix, then 7 bits per continuation byte.</summary>
internal static class HpackInteger
{
    /// <summary>
    /// Reads an integer whose N-bit prefix is in <c>block[position]</c>, advancing <paramref name="position"/> past it.
    /// Values above <see cref="int.MaxValue"/> and a block ending inside the integer are decoding errors.
    /// </summary>
    public static int Read(ReadOnlySpan<byte> block, ref int position, int prefixBits)
    {
        var max = (1 << prefixBits) - 1;
        var value = block[position++] & max;
        if (value < max)
        {
            return value;
        }

        for (var shift = 0; ; shift += 7)
        {
            if (position >= block.Length)
            {
                HpackDecodingException.Throw("The field block ends inside an integer (RFC 7541 §5.1).");
            }

            var next = block[position++];
            long addend = (long)(next & 0x7F) << shift;
            if (shift > 28 || value + addend > int.MaxValue)
            {
                HpackDecodingException.Throw("An integer is larger than this decoder accepts (RFC 7541 §5.1).");
            }

            value += (int)addend;
            if ((next & 0x80) == 0)
            {
                return value;
            }
        }
    }

    /// <summary>Writes <paramref name="value"/> with an N-bit prefix whose first byte also carries <paramref name="pattern"/>.</summary>
    public static void Write(IBufferWriter<byte> output, byte pattern, int prefixBits, int value)
    {
        var span = output.GetSpan(MaxLength);
        output.Advance(Write(span, pattern, prefixBits, value));
    }

    /// <summary>The longest encoding of a non-negative <see cref="int"/>: the prefix byte and five continuation bytes.</summary>
    public const int MaxLength = 6;

    /// <summary>Writes <paramref name="value"/> into <paramref name="destination"/> and returns the bytes written.</summary>
    public static int Write(Span<byte> destination, byte pattern, int prefixBits, int value)
    {
        var max = (1 << prefixBits) - 1;
        if (value < max)
        {
            destination[0] = (byte)(pattern | value);
            return 1;
        }

        destination[0] = (byte)(pattern | max);
        var remainder = (uint)(value - max);
        var written = 1;
        while (remainder >= 0x80)
        {
            destination[written++] = (byte)(remainder | 0x80);
            remainder >>= 7;
        }

        destination[written++] = (byte)remainder;
        return written;
    }
}
