using System.Globalization;
using System.Text.RegularExpressions;

namespace LLRP.Bench.Load;

/// <summary>
/// Reads wrk 4's text report (with <c>--latency</c>) the way crank's Microsoft.Crank.Jobs.Wrk does, plus the
/// <c>Non-2xx responses: N</c> line printed by scripts/wrk/status.lua. wrk prints times as us, ms, s, m or h.
/// </summary>
public static partial class WrkOutputParser
{
    /// <exception cref="FormatException">The output has no <c>N requests in T</c> line (wrk failed).</exception>
    public static WrkResult Parse(string output)
    {
        var requests = RequestsLine().Match(output);
        if (!requests.Success)
        {
            throw new FormatException("wrk printed no 'N requests in T' line");
        }

        var latency = LatencyLine().Match(output);
        var socketErrors = SocketErrorsLine().Match(output);
        var scriptNon2xx = ScriptNon2xxLine().Match(output);
        var wrkNon2xx = WrkNon2xxLine().Match(output);
        var duration = ToMicroseconds(requests.Groups["duration"].Value, requests.Groups["unit"].Value) / 1e6;
        var count = long.Parse(requests.Groups["count"].Value, CultureInfo.InvariantCulture);

        return new WrkResult
        {
            Requests = count,
            DurationSeconds = duration,
            RequestsPerSecond = RequestsPerSecondLine().Match(output) is { Success: true } rps
                ? double.Parse(rps.Groups[1].Value, CultureInfo.InvariantCulture)
                : count / duration,
            LatencyMeanMicroseconds = latency.Success ? Time(latency.Groups["mean"]) : double.NaN,
            LatencyMaxMicroseconds = latency.Success ? Time(latency.Groups["max"]) : double.NaN,
            LatencyP50Microseconds = Percentile(output, "50%"),
            LatencyP75Microseconds = Percentile(output, "75%"),
            LatencyP90Microseconds = Percentile(output, "90%"),
            LatencyP99Microseconds = Percentile(output, "99%"),
            Non2xxResponses = scriptNon2xx.Success ? Long(scriptNon2xx.Groups[1])
                : wrkNon2xx.Success ? Long(wrkNon2xx.Groups[1])
                : 0,
            SocketErrors = socketErrors.Success
                ? Long(socketErrors.Groups["connect"]) + Long(socketErrors.Groups["read"]) + Long(socketErrors.Groups["write"]) + Long(socketErrors.Groups["timeout"])
                : 0,
        };
    }

    private static double Percentile(string output, string label)
    {
        var match = Regex.Match(output, $@"^\s+{Regex.Escape(label)}\s+(?<value>[\d.]+)(?<unit>[a-z]+)\s*$", RegexOptions.Multiline);
        return match.Success ? ToMicroseconds(match.Groups["value"].Value, match.Groups["unit"].Value) : double.NaN;
    }

    private static double Time(Group group)
    {
        var match = TimeValue().Match(group.Value);
        return ToMicroseconds(match.Groups["value"].Value, match.Groups["unit"].Value);
    }

    private static double ToMicroseconds(string value, string unit)
    {
        var number = double.Parse(value, CultureInfo.InvariantCulture);
        return unit switch
        {
            "us" => number,
            "ms" => number * 1e3,
            "s" => number * 1e6,
            "m" => number * 60e6,
            "h" => number * 3600e6,
            _ => throw new FormatException($"unknown wrk time unit '{unit}'"),
        };
    }

    private static long Long(Group group) => long.Parse(group.Value, CultureInfo.InvariantCulture);

    [GeneratedRegex(@"(?<count>\d+) requests in (?<duration>[\d.]+)(?<unit>[a-z]+)")]
    private static partial Regex RequestsLine();

    [GeneratedRegex(@"^\s+Latency\s+(?<mean>[\d.]+[a-z]+)\s+(?<stdev>[\d.]+[a-z]+)\s+(?<max>[\d.]+[a-z]+)", RegexOptions.Multiline)]
    private static partial Regex LatencyLine();

    [GeneratedRegex(@"^(?<value>[\d.]+)(?<unit>[a-z]+)$")]
    private static partial Regex TimeValue();

    [GeneratedRegex(@"Requests/sec:\s*([\d.]+)")]
    private static partial Regex RequestsPerSecondLine();

    [GeneratedRegex(@"Socket errors: connect (?<connect>\d+), read (?<read>\d+), write (?<write>\d+), timeout (?<timeout>\d+)")]
    private static partial Regex SocketErrorsLine();

    [GeneratedRegex(@"^Non-2xx responses: (\d+)", RegexOptions.Multiline)]
    private static partial Regex ScriptNon2xxLine();

    [GeneratedRegex(@"Non-2xx or 3xx responses: (\d+)")]
    private static partial Regex WrkNon2xxLine();
}
