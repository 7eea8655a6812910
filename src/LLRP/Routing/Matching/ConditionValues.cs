using LLRP.Http1;
using System.Text;

namespace LLRP.Routing;

/// <summary>The configured values of a header or query condition, as UTF-8, and the comparison applied to them.</summary>
internal sealed class ConditionValues(IReadOnlyList<string> values, ValueComparison comparison, bool isCaseSensitive)
{
    private readonly byte[][] _values = [.. values.Select(Encoding.UTF8.GetBytes)];

    public ValueComparison Comparison => comparison;

    /// <summary>Whether <paramref name="value"/> compares true with one of the configured values.</summary>
    public bool AnyMatches(ReadOnlySpan<byte> value)
    {
        var ignoreCase = !isCaseSensitive;
        foreach (var expected in _values)
        {
            var matched = comparison == ValueComparison.Exact
                ? AsciiCase.Equals(value, expected, ignoreCase)
                : comparison == ValueComparison.Prefix
                    ? AsciiCase.StartsWith(value, expected, ignoreCase)
                    : AsciiCase.Contains(value, expected, ignoreCase);
            if (matched)
            {
                return true;
            }
        }

        return false;
    }
}
