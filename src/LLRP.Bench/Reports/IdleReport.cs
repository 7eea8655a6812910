using System.Globalization;
using System.Text;
using LLRP.Bench.Load;
using LLRP.Bench.Results;
using LLRP.Bench.Running;

namespace LLRP.Bench.Reports;

/// <summary>results.md's "Idle connections" table: memory per idle keep-alive client connection (the slope over steps) and upstream connections held.</summary>
public static class IdleReport
{
    public static void Write(StringBuilder text, RunResult run)
    {
        var requested = run.IdleSamples.Max(s => s.Requested);
        text.Append("\n## Idle connections\n\n");
        text.Append(CultureInfo.InvariantCulture, $"{requested} keep-alive connections opened by the runner ({IdleConnectionSet.Parallelism} at a time, on the load CPU), each after one `GET /?s=10` answered 200, then left idle. ");
        text.Append(CultureInfo.InvariantCulture, $"The contender is started again for them, so that what the shapes left in its memory (a heap grown and not given back, a pool's blocks) takes no connection in. They come in {ContenderSession.IdleSteps} equal steps (a quarter each, the set growing), and RSS (VmRSS summed over the contender's processes, so nginx's and HAProxy's workers too) is read {ContenderSession.IdleSettle.TotalSeconds} s before the first connection and {ContenderSession.IdleSettle.TotalSeconds} s after each step. ");
        text.Append("Per connection: the least-squares slope of RSS over the connections open at the steps (the reading before any is left out): what one more idle connection costs, whatever the process had committed before or pays once (a pool's first blocks, threads, code compiled on first use). ");
        text.Append("Steps: each step's own growth ÷ the connections it added, lowest–highest over every round: far apart, the process's memory moved on its own meanwhile (a GC, a pool's trim) and the slope is no better than that. ");
        text.Append("From before: the growth from before the first connection to the last step ÷ connections open, the one-time costs included. ");
        text.Append("Upstream: established TCP connections from the contender's processes to the origin's port while the clients are idle (/proc/PID/fd and /proc/net/tcp). ");
        text.Append("Medians (min–max) over rounds.\n\n");
        text.Append("| contender | open | RSS before MB | KiB/connection (slope) | steps KiB/connection | from before KiB/connection | upstream connections held | failures |\n");
        text.Append("|---|---:|---:|---:|---:|---:|---:|---|\n");
        foreach (var contender in run.Measured)
        {
            var own = run.IdleSamples.Where(s => s.Contender == contender.Name).ToList();
            if (own.Count == 0)
            {
                continue;
            }

            var open = Spread.Of(own.Select(s => (double)s.Opened))!.Value;
            var before = Spread.Of(own.Select(s => (double)s.ResidentBytesBefore))!.Value;
            var slope = Spread.Of(own.Select(s => s.SlopeBytesPerConnection / 1024 ?? double.NaN));
            var steps = Spread.Of(own.SelectMany(s => ResidentSlope.Increments(s.Steps.Skip(1).ToList())).Select(b => b / 1024));
            var growth = Spread.Of(own.Select(s => s.BytesPerConnection / 1024 ?? double.NaN));
            var upstream = Spread.Of(own.Select(s => (double)s.UpstreamConnections))!.Value;
            var failures = own.Where(s => s.Error is not null).Select(s => $"r{s.Round}: {s.Error}");
            text.Append(CultureInfo.InvariantCulture, $"| {contender.Name} ");
            text.Append(CultureInfo.InvariantCulture, $"| {Units.Count(open.Median)} ");
            text.Append(CultureInfo.InvariantCulture, $"| {Units.Megabytes(before.Median)} ");
            text.Append(CultureInfo.InvariantCulture, $"| {MedianAndRange(slope)} ");
            text.Append(CultureInfo.InvariantCulture, $"| {(steps is { } i ? $"{Units.Decimal(i.Min, 1)}–{Units.Decimal(i.Max, 1)}" : "—")} ");
            text.Append(CultureInfo.InvariantCulture, $"| {MedianAndRange(growth)} ");
            text.Append(CultureInfo.InvariantCulture, $"| {Units.Count(upstream.Median)} ({Units.Count(upstream.Min)}–{Units.Count(upstream.Max)}) ");
            text.Append(CultureInfo.InvariantCulture, $"| {string.Join("; ", failures)} |\n");
        }

        text.Append("\nThe readings, RSS in MB at each count of connections open:\n\n");
        foreach (var sample in run.IdleSamples.OrderBy(s => s.Contender, StringComparer.Ordinal).ThenBy(s => s.Round))
        {
            var readings = sample.Steps.Select(step => string.Create(CultureInfo.InvariantCulture, $"{Units.Count(step.Open)}: {Units.Decimal(step.ResidentBytes / 1e6, 1)}"));
            text.Append(CultureInfo.InvariantCulture, $"- {sample.Contender}, round {sample.Round}: {string.Join(", ", readings)}\n");
        }
    }

    private static string MedianAndRange(Spread? spread)
        => spread is { } s ? $"{Units.Decimal(s.Median, 1)} ({Units.Decimal(s.Min, 1)}–{Units.Decimal(s.Max, 1)})" : "—";
}
