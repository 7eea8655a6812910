namespace LLRP.Http1;

/// <summary>Byte comparisons that ignore the case of ASCII letters only; other bytes compare exactly.</summary>
internal static class AsciiCase
{
    public static byte Fold(byte value) => (uint)(value - 'A') <= 'Z' - 'A' ? (byte)(value | 0x20) : value;

    public static bool EqualsIgnoreCase(ReadOnlySpan<byte> left, ReadOnlySpan<byte> right)
    {
        if (left.Length != right.Length)
        {
            return false;
        }

        for (var i = 0; i < left.Length; i++)
        {
            if (left[i] != right[i] && Fold(left[i]) != Fold(right[i]))
            {
                return false;
            }
        }

        return true;
    }

    public static bool Equals(ReadOnlySpan<byte> value, ReadOnlySpan<byte> expected, bool ignoreCase)
        => ignoreCase ? EqualsIgnoreCase(value, expected) : value.SequenceEqual(expected);

    public static bool StartsWith(ReadOnlySpan<byte> value, ReadOnlySpan<byte> prefix, bool ignoreCase)
        => value.Length >= prefix.Length && Equals(value[..prefix.Length], prefix, ignoreCase);

    public static bool Contains(ReadOnlySpan<byte> value, ReadOnlySpan<byte> part, bool ignoreCase)
    {
        if (!ignoreCase)
        {
            return value.IndexOf(part) >= 0;
        }

        for (var start = 0; start <= value.Length - part.Length; start++)
        {
            if (EqualsIgnoreCase(value.Slice(start, part.Length), part))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>A string equal for keys equal under <see cref="EqualsIgnoreCase"/>, for grouping keys while a table is built.</summary>
    public static string FoldedKey(ReadOnlySpan<byte> value)
    {
        var folded = new byte[value.Length];
        for (var i = 0; i < value.Length; i++)
        {
            folded[i] = Fold(value[i]);
        }

        return Convert.ToHexString(folded);
    }

    /// <summary>FNV-1a over the folded bytes: equal under <see cref="EqualsIgnoreCase"/> means equal hashes.</summary>
    public static uint Hash(ReadOnlySpan<byte> value)
    {
        var hash = 2166136261u;
        foreach (var b in value)
        {
            hash = (hash ^ Fold(b)) * 16777619u;
        }

        return hash;
    }
}
