namespace LLRP.Configuration;

/// <summary>Levenshtein distance, for the nearest known key an unknown one is named with.</summary>
internal static class EditDistance
{
    /// <summary>The fewest single-character insertions, deletions and substitutions from <paramref name="a"/> to <paramref name="b"/>.</summary>
    public static int Between(string a, string b)
    {
        var previous = new int[b.Length + 1];
        var current = new int[b.Length + 1];
        for (var j = 0; j <= b.Length; j++)
        {
            previous[j] = j;
        }

        for (var i = 1; i <= a.Length; i++)
        {
            current[0] = i;
            for (var j = 1; j <= b.Length; j++)
            {
                var substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
                current[j] = Math.Min(substitution, Math.Min(previous[j], current[j - 1]) + 1);
            }

            (previous, current) = (current, previous);
        }

        return previous[b.Length];
    }
}
