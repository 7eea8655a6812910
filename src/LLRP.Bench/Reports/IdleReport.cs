using System.Globalization;
using System.Text;
using LLRP.Bench.Load;
using LLRP.Bench.Results;
using LLRP.Bench.Running;

namespace LLRP.Bench.Reports;

/// <summary>results.md's "Idle connections" table: memory per idle keep-alive client connection and upstream connections held.</summary>
public static class IdleReport
{
    public static void Write(StringBuilder text, RunResult run)
    {
        var requested = run.IdleSamples.Max(s => s.Requested);
        text.Append("\n## Idle connections\n\n");
        text.Append(CultureInfo.InvariantCulture, $"{requested} keep-alive connections opened by the runner ({IdleConnectionSet.Parallelism} at a time, on the load CPU), each after one `GET /?s=10` answered 200, then left idle. ");
        text.Append(CultureInfo.InvariantCulture, $"RSS: VmRSS summed over the contender's processes, {ContenderSession.IdleSettle.TotalSeconds} s before the first connection and {ContenderSession.IdleSettle.TotalSeconds} s after the last; growth ÷ connections open. ");
        text.Append("Upstream: established TCP connections from the contender's processes to the origin's port while the clients are idle (/proc/PID/fd and /proc/net/tcp). ");
        text.Append("Medians (min–max) over rounds.\n\n");
        text.Append("| contender | open | RSS before MB | RSS growth KiB/connection | upstream connections held | failures |\n");
        text.Append("|---|---:|---:|---:|---:|---|\n");
        foreach (var contender in run.Measured)
        {
            var own = run.IdleSamples.Where(s => s.Contender == contender.Name).ToList();
            if (own.Count == 0)
            {
                continue;
            }

            var open = Spread.Of(own.Select(s => (double)s.Opened))!.Value;
            var before = Spread.Of(own.Select(s => (double)s.ResidentBytesBefore))!.Value;
            var growth = Spread.Of(own.Select(s => s.BytesPerConnection / 1024 ?? double.NaN));
            var upstream = Spread.Of(own.Select(s => (double)s.UpstreamConnections))!.Value;
            var failures = own.Where(s => s.Error is not null).Select(s => $"r{s.Round}: {s.Error}");
            text.Append(CultureInfo.InvariantCulture, $"| {contender.Name} ");
            text.Append(CultureInfo.InvariantCulture, $"| {Units.Count(open.Median)} ");
            text.Append(CultureInfo.InvariantCulture, $"| {Units.Megabytes(before.Median)} ");
            text.Append(CultureInfo.InvariantCulture, $"| {(growth is { } g ? $"{Units.Decimal(g.Median, 1)} ({Units.Decimal(g.Min, 1)}–{Units.Decimal(g.Max, 1)})" : "—")} ");
            text.Append(CultureInfo.InvariantCulture, $"| {Units.Count(upstream.Median)} ({Units.Count(upstream.Min)}–{Units.Count(upstream.Max)}) ");
            text.Append(CultureInfo.InvariantCulture, $"| {string.Join("; ", failures)} |\n");
        }
    }
}
