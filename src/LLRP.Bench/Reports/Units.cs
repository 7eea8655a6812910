using System.Globalization;

namespace LLRP.Bench.Reports;

/// <summary>How figures are written in the Markdown report and the chart.</summary>
public static class Units
{
    private static readonly CultureInfo _invariant = CultureInfo.InvariantCulture;

    /// <summary>A latency given in microseconds, as µs, ms or s.</summary>
    public static string Latency(double microseconds) => microseconds switch
    {
        double.NaN => "—",
        < 1_000 => microseconds.ToString("0", _invariant) + " µs",
        < 1_000_000 => (microseconds / 1e3).ToString("0.00", _invariant) + " ms",
        _ => (microseconds / 1e6).ToString("0.00", _invariant) + " s",
    };

    public static string Count(double value) => value.ToString("N0", _invariant);

    public static string Decimal(double value, int digits) => value.ToString("F" + digits, _invariant);

    public static string Ratio(double value) => value.ToString("0.00", _invariant) + "×";

    /// <summary>Bytes as decimal megabytes.</summary>
    public static string Megabytes(double bytes) => (bytes / 1e6).ToString("0", _invariant);

    /// <summary>A duration as <c>1h02m</c>, <c>3m05s</c> or <c>42s</c>.</summary>
    public static string Duration(TimeSpan time)
        => time.TotalHours >= 1 ? $"{(int)time.TotalHours}h{time.Minutes:00}m"
            : time.TotalMinutes >= 1 ? $"{(int)time.TotalMinutes}m{time.Seconds:00}s"
            : $"{Math.Max(0, (int)time.TotalSeconds)}s";
}
