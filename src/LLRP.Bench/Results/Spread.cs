namespace LLRP.Bench.Results;

/// <summary>Median and range of a figure over rounds.</summary>
public readonly record struct Spread(double Median, double Min, double Max)
{
    /// <summary>Null when there is no value (NaN values are ignored).</summary>
    public static Spread? Of(IEnumerable<double> values)
    {
        var sorted = values.Where(v => !double.IsNaN(v)).Order().ToArray();
        if (sorted.Length == 0)
        {
            return null;
        }

        var middle = sorted.Length / 2;
        var median = sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new Spread(median, sorted[0], sorted[^1]);
    }
}
