namespace LLRP.Bench.Reports;

/// <summary>Adds crank metrics, one value per sample, under one name prefix and title: a shape's, the large bodies', the idle connections'.</summary>
/// <param name="metrics">Where the metrics go.</param>
/// <param name="prefix">Put before each metric's name, with a '/'.</param>
/// <param name="title">Put before each metric's description, with ": ".</param>
/// <param name="samples">The samples of one contender, one per round.</param>
/// <param name="timestamp">When a sample was taken.</param>
public sealed class MetricSeries<T>(List<CrankMetric> metrics, string prefix, string title, IReadOnlyList<T> samples, Func<T, DateTime> timestamp)
{
    /// <summary>Adds the metric <paramref name="name"/>: <paramref name="figure"/> of every sample that has one.</summary>
    public void Add(string name, string description, string format, bool isLoad, Func<T, double?> figure)
        => metrics.Add(new CrankMetric(
            $"{prefix}/{name}",
            $"{title}: {description}",
            format,
            isLoad,
            [.. samples.Where(s => figure(s) is not null).Select(s => (timestamp(s), figure(s)!.Value))]));
}
