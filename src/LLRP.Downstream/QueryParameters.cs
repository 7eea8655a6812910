using System.Globalization;

namespace LLRP.Downstream;

/// <summary>
/// Reads non-negative decimal integers out of a raw query string (<c>?s=10&amp;d=5</c>) without
/// building a query collection. The first occurrence of a key wins; values are digits only.
/// </summary>
internal static class QueryParameters
{
    /// <summary>
    /// Returns false when <paramref name="key"/> is present but its value is not a decimal in
    /// <c>[minValue, maxValue]</c>; returns true with <paramref name="defaultValue"/> when absent.
    /// </summary>
    public static bool TryGetInt64(
        string? query, ReadOnlySpan<char> key, long defaultValue, long minValue, long maxValue, out long value)
    {
        var remaining = query.AsSpan();
        if (remaining.StartsWith('?'))
        {
            remaining = remaining[1..];
        }

        foreach (var range in remaining.Split('&'))
        {
            var pair = remaining[range];
            var separator = pair.IndexOf('=');
            var name = separator < 0 ? pair : pair[..separator];
            if (!name.SequenceEqual(key))
            {
                continue;
            }

            var text = separator < 0 ? [] : pair[(separator + 1)..];
            return long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out value)
                && value >= minValue
                && value <= maxValue;
        }

        value = defaultValue;
        return true;
    }
}
