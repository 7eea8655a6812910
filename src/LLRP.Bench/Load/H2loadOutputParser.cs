using System.Globalization;
using System.Text.RegularExpressions;

namespace LLRP.Bench.Load;

/// <summary>
/// Reads h2load's (nghttp2 1.5x) text report and its per-request log (<c>--log-file</c>: start time in µs since the epoch,
/// status code, µs until the end of the response, tab-separated) into the figures wrk gives: requests = h2load's
/// <c>done</c>, requests/s from its <c>finished in</c> line, latency mean, max and percentiles from the log, non-2xx = the
/// 3xx, 4xx and 5xx of its <c>status codes</c> line, socket errors = its <c>errored</c> + <c>timeout</c> requests.
/// </summary>
public static partial class H2loadOutputParser
{
    /// <param name="output">h2load's standard output.</param>
    /// <param name="requestLog">The contents of its <c>--log-file</c>; empty when it completed no request.</param>
    /// <param name="durationSeconds">The <c>-D</c> it was given: the window its requests/s is over.</param>
    /// <exception cref="FormatException">The output has no <c>requests:</c> line (h2load failed), or a log row is malformed.</exception>
    public static WrkResult Parse(string output, string requestLog, double durationSeconds)
    {
        var requests = RequestsLine().Match(output);
        if (!requests.Success)
        {
            throw new FormatException("h2load printed no 'requests: N total, …' line");
        }

        var statuses = StatusCodesLine().Match(output);
        var finished = FinishedLine().Match(output);
        var done = Long(requests.Groups["done"]);
        var latencies = Latencies(requestLog);
        return new WrkResult
        {
            Requests = done,
            DurationSeconds = durationSeconds,
            RequestsPerSecond = finished.Success ? double.Parse(finished.Groups["rps"].Value, CultureInfo.InvariantCulture) : done / durationSeconds,
            LatencyMeanMicroseconds = latencies.Length == 0 ? double.NaN : latencies.Average(),
            LatencyMaxMicroseconds = latencies.Length == 0 ? double.NaN : latencies[^1],
            LatencyP50Microseconds = Percentile(latencies, 0.50),
            LatencyP75Microseconds = Percentile(latencies, 0.75),
            LatencyP90Microseconds = Percentile(latencies, 0.90),
            LatencyP99Microseconds = Percentile(latencies, 0.99),
            Non2xxResponses = statuses.Success ? Long(statuses.Groups["s3"]) + Long(statuses.Groups["s4"]) + Long(statuses.Groups["s5"]) : 0,
            SocketErrors = Long(requests.Groups["errored"]) + Long(requests.Groups["timeout"]),
        };
    }

    /// <summary>The 2xx responses of h2load's <c>status codes</c> line; 0 when it printed none (it completed no request).</summary>
    public static long Count2xx(string output)
        => StatusCodesLine().Match(output) is { Success: true } statuses ? Long(statuses.Groups["s2"]) : 0;

    /// <summary>The third column of every row, sorted.</summary>
    private static double[] Latencies(string requestLog)
    {
        var values = new List<double>();
        foreach (var line in requestLog.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var columns = line.Split('\t');
            if (columns.Length < 3 || !double.TryParse(columns[2], NumberStyles.None, CultureInfo.InvariantCulture, out var microseconds))
            {
                throw new FormatException($"h2load's log has a malformed row '{line}'");
            }

            values.Add(microseconds);
        }

        values.Sort();
        return [.. values];
    }

    /// <summary>Nearest rank: the smallest value with at least <paramref name="fraction"/> of the values at or below it.</summary>
    private static double Percentile(double[] sorted, double fraction)
        => sorted.Length == 0 ? double.NaN : sorted[Math.Max(0, (int)Math.Ceiling(fraction * sorted.Length) - 1)];

    private static long Long(Group group) => long.Parse(group.Value, CultureInfo.InvariantCulture);

    [GeneratedRegex(@"^requests: (?<total>\d+) total, (?<started>\d+) started, (?<done>\d+) done, (?<succeeded>\d+) succeeded, (?<failed>\d+) failed, (?<errored>\d+) errored, (?<timeout>\d+) timeout", RegexOptions.Multiline)]
    private static partial Regex RequestsLine();

    [GeneratedRegex(@"^status codes: (?<s2>\d+) 2xx, (?<s3>\d+) 3xx, (?<s4>\d+) 4xx, (?<s5>\d+) 5xx", RegexOptions.Multiline)]
    private static partial Regex StatusCodesLine();

    [GeneratedRegex(@"^finished in [\d.]+\w+, (?<rps>[\d.]+) req/s", RegexOptions.Multiline)]
    private static partial Regex FinishedLine();
}
