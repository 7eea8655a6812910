namespace LLRP.Http1;

/// <summary>
/// Percent-decoding (RFC 3986 §2.1) for comparison, without allocating: the route matcher's and the query transforms'. In a path segment an encoded '/' (<c>%2F</c>)
/// stays as its three characters, as Kestrel leaves it, so it never splits a segment nor equals a literal '/'.
/// A '%' not followed by two hex digits is taken as itself.
/// </summary>
internal static class PercentEncoding
{
    /// <summary>Whether the raw segment, decoded, equals <paramref name="literal"/> ignoring ASCII case.</summary>
    public static bool SegmentEquals(ReadOnlySpan<byte> raw, ReadOnlySpan<byte> literal)
    {
        var at = 0;
        var i = 0;
        while (i < raw.Length)
        {
            var length = NextSegmentByte(raw, i, out var value);
            if (length == 3 && value == (byte)'/')
            {
                if (!AsciiCase.EqualsIgnoreCase(raw.Slice(i, 3), literal.Slice(at, Math.Min(3, literal.Length - at))))
                {
                    return false;
                }

                at += 3;
            }
            else
            {
                if (at == literal.Length || AsciiCase.Fold(value) != AsciiCase.Fold(literal[at]))
                {
                    return false;
                }

                at++;
            }

            i += length;
        }

        return at == literal.Length;
    }

    /// <summary>Decodes a path segment into <paramref name="destination"/>; -1 when it does not fit.</summary>
    public static int DecodeSegment(ReadOnlySpan<byte> raw, Span<byte> destination)
    {
        var written = 0;
        var i = 0;
        while (i < raw.Length)
        {
            var length = NextSegmentByte(raw, i, out var value);
            var kept = length == 3 && value == (byte)'/' ? raw.Slice(i, 3) : new ReadOnlySpan<byte>(in value);
            if (written + kept.Length > destination.Length)
            {
                return -1;
            }

            kept.CopyTo(destination[written..]);
            written += kept.Length;
            i += length;
        }

        return written;
    }

    /// <summary>
    /// Decodes a query name or value as a form does ('+' is a space) into <paramref name="destination"/>, which must be
    /// at least as long as <paramref name="raw"/>.
    /// </summary>
    public static int DecodeQueryComponent(ReadOnlySpan<byte> raw, Span<byte> destination)
    {
        var written = 0;
        var i = 0;
        while (i < raw.Length)
        {
            if (raw[i] == (byte)'+')
            {
                destination[written++] = (byte)' ';
                i++;
                continue;
            }

            i += NextSegmentByte(raw, i, out destination[written++]);
        }

        return written;
    }

    /// <summary>Whether the query name or value <paramref name="raw"/>, decoded as a form ('+' is a space), equals <paramref name="decoded"/> ignoring ASCII case.</summary>
    public static bool QueryComponentEquals(ReadOnlySpan<byte> raw, ReadOnlySpan<byte> decoded)
    {
        var at = 0;
        var i = 0;
        while (i < raw.Length)
        {
            byte value;
            if (raw[i] == (byte)'+')
            {
                value = (byte)' ';
                i++;
            }
            else
            {
                i += NextSegmentByte(raw, i, out value);
            }

            if (at == decoded.Length || AsciiCase.Fold(value) != AsciiCase.Fold(decoded[at]))
            {
                return false;
            }

            at++;
        }

        return at == decoded.Length;
    }

    private static int NextSegmentByte(ReadOnlySpan<byte> raw, int i, out byte value)
    {
        if (raw[i] == (byte)'%' && i + 2 < raw.Length && TryHex(raw[i + 1], out var high) && TryHex(raw[i + 2], out var low))
        {
            value = (byte)((high << 4) | low);
            return 3;
        }

        value = raw[i];
        return 1;
    }

    private static bool TryHex(byte digit, out int value)
    {
        value = digit switch
        {
            >= (byte)'0' and <= (byte)'9' => digit - '0',
            >= (byte)'a' and <= (byte)'f' => digit - 'a' + 10,
            >= (byte)'A' and <= (byte)'F' => digit - 'A' + 10,
            _ => -1,
        };
        return value >= 0;
    }
}
