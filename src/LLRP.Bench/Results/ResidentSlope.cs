namespace LLRP.Bench.Results;

/// <summary>
/// The arithmetic of the idle measure: RSS against the connections open, read at several counts of one growing set. The
/// slope over the counts (least squares) is what one more idle connection costs; a constant (what the process had
/// committed and not used, a pool's first blocks, threads, code compiled on first use) changes every reading alike and
/// leaves the slope as it is, where it would weigh on growth ÷ connections taken at one count.
/// </summary>
public static class ResidentSlope
{
    /// <summary>
    /// The least-squares slope of <see cref="IdleStep.ResidentBytes"/> over <see cref="IdleStep.Open"/>, in bytes per
    /// connection; null with fewer than two distinct counts.
    /// </summary>
    public static double? LeastSquares(IReadOnlyList<IdleStep> steps)
    {
        if (steps.Select(s => s.Open).Distinct().Count() < 2)
        {
            return null;
        }

        var meanOpen = steps.Average(s => (double)s.Open);
        var meanBytes = steps.Average(s => (double)s.ResidentBytes);
        double covariance = 0;
        double variance = 0;
        foreach (var step in steps)
        {
            var open = step.Open - meanOpen;
            covariance += open * (step.ResidentBytes - meanBytes);
            variance += open * open;
        }

        return covariance / variance;
    }

    /// <summary>
    /// Each step's own growth ÷ the connections it added, in order (steps that added none are skipped): how far apart
    /// they are says how much the process's memory moved on its own while the connections came (a GC, a pool's trim).
    /// </summary>
    public static IEnumerable<double> Increments(IReadOnlyList<IdleStep> steps)
    {
        for (var i = 1; i < steps.Count; i++)
        {
            var added = steps[i].Open - steps[i - 1].Open;
            if (added > 0)
            {
                yield return (double)(steps[i].ResidentBytes - steps[i - 1].ResidentBytes) / added;
            }
        }
    }
}
