using System.Globalization;
using LLRP.Bench.Contenders;
using LLRP.Bench.Results;

namespace LLRP.Bench.Reports;

/// <summary>
/// The columns a balancing shape's table adds: the contender's policy, and how its requests spread over the origins of
/// <see cref="Origins.OriginPlan.Balance"/>, as each origin counted them during the measured windows.
/// </summary>
public static class BalanceColumns
{
    public static string Header(RunResult run)
        => $" balancing | requests to {string.Join(" / ", run.Origins.Balance.Select(o => o.Label))} |";

    public const string Alignment = "---|---:|";

    /// <summary>Each origin's share of the requests the origins received, summed over rounds, e.g. <c>48.1% / 47.9% / 4.0%</c>.</summary>
    public static string Cells(Contender contender, IReadOnlyList<ShapeSample> samples)
    {
        var counted = samples.Where(s => s.OriginRequests is not null).ToList();
        var sums = counted.Count == 0 ? [] : Enumerable.Range(0, counted[0].OriginRequests!.Count).Select(i => counted.Sum(s => s.OriginRequests![i])).ToList();
        var total = sums.Sum();
        var shares = total <= 0 ? "—" : string.Join(" / ", sums.Select(sum => ((double)sum / total).ToString("0.0%", CultureInfo.InvariantCulture)));
        return $" {contender.Balancing ?? "—"} | {shares} |";
    }

    /// <summary>A line under the table: where the origins are and where the counts come from.</summary>
    public static string Legend(RunResult run)
        => "\nOrigins: " + string.Join(", ", run.Origins.Balance.Select(o => $"{o.Label} = {o.Describe()}"))
            + ". Requests to each: what the origin itself counted during the measured windows (the bundled origin's `/requests`, nginx's `stub_status`), summed over rounds, as shares of their sum.\n";
}
