using System.Globalization;
using System.Text;
using LLRP.Bench.Contenders;
using LLRP.Bench.Load;
using LLRP.Bench.Results;

namespace LLRP.Bench.Reports;

/// <summary>results.md's table for a WebSocket echo shape: messages/s, MB/s each way, round-trip latency, errors and proxy CPU per message.</summary>
public static class WebSocketReport
{
    public static void Write(StringBuilder text, RunResult run, LoadShape shape)
    {
        var samples = run.WebSocketSamples.Where(s => s.Shape == shape).ToList();
        text.Append(CultureInfo.InvariantCulture, $"\n## {shape.Title}\n\n");
        text.Append(CultureInfo.InvariantCulture, $"`ws://…{shape.Path}`: {shape.Connections} connections (the runner's `ClientWebSocket`s, on the load CPU when pinned), each sending one {Units.Count(shape.WebSocketMessageBytes)}-byte binary message and reading its whole echo, checked byte for byte, before the next. ");
        text.Append("The origin is the bundled Kestrel origin's `/ws` echo (src/LLRP.Downstream), whatever `--origin` says: nginx cannot echo WebSocket messages. ");
        text.Append("A message is one round trip; MB/s is payload in each direction; errors are connections that ended badly (a refused handshake: a proxy that drops `Upgrade` reaches the origin's 426), summed over rounds; CPU µs/msg is the contender's user + system CPU over the window ÷ messages echoed.\n\n");
        if (samples.Count == 0)
        {
            text.Append("No results.\n");
            MarkdownReport.WriteNotMeasured(text, run, shape);
            return;
        }

        text.Append("| contender | messages/s median (min–max) | ×direct | MB/s each way | round trip mean / p50 / p99 / max | errors | CPU µs/msg | peak RSS MB | alloc B/msg | first error |\n");
        text.Append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        var direct = Spread.Of(samples.Where(s => s.Contender == "direct").Select(s => s.Echo.MessagesPerSecond));
        foreach (var contender in run.Measured)
        {
            var own = samples.Where(s => s.Contender == contender.Name).ToList();
            if (own.Count == 0)
            {
                continue;
            }

            var rate = Spread.Of(own.Select(s => s.Echo.MessagesPerSecond))!.Value;
            var megabytes = Spread.Of(own.Select(s => s.Echo.MegabytesPerSecondEachWay))!.Value;
            var cpu = Spread.Of(own.Select(s => s.CpuMicrosecondsPerMessage ?? double.NaN));
            var peak = own.Select(s => s.PeakResidentBytes).Max();
            var allocation = Spread.Of(own.Select(s => s.AllocatedBytesPerMessage ?? double.NaN));
            var firstError = own.Select(s => s.Echo.FirstError).FirstOrDefault(e => e is not null);
            text.Append(CultureInfo.InvariantCulture, $"| {contender.Name} ");
            text.Append(CultureInfo.InvariantCulture, $"| {Units.Count(rate.Median)} ({Units.Count(rate.Min)}–{Units.Count(rate.Max)}) ");
            text.Append(CultureInfo.InvariantCulture, $"| {(direct is { Median: > 0 } d ? Units.Ratio(rate.Median / d.Median) : "—")} ");
            text.Append(CultureInfo.InvariantCulture, $"| {Units.Decimal(megabytes.Median, 1)} ");
            text.Append(CultureInfo.InvariantCulture, $"| {Latency(own, e => e.LatencyMeanMicroseconds)} / {Latency(own, e => e.LatencyP50Microseconds)} / {Latency(own, e => e.LatencyP99Microseconds)} / {Latency(own, e => e.LatencyMaxMicroseconds)} ");
            text.Append(CultureInfo.InvariantCulture, $"| {own.Sum(s => s.Echo.Errors)} ");
            text.Append(CultureInfo.InvariantCulture, $"| {(cpu is { } c ? $"{Units.Decimal(c.Median, 1)} ({Units.Decimal(c.Min, 1)}–{Units.Decimal(c.Max, 1)})" : "—")} ");
            text.Append(CultureInfo.InvariantCulture, $"| {(peak is { } p ? Units.Megabytes(p) : "—")} ");
            text.Append(CultureInfo.InvariantCulture, $"| {(allocation is { } a ? Units.Count(a.Median) : contender.Kind == ContenderKind.DotNet ? "n/a" : "—")} ");
            text.Append(CultureInfo.InvariantCulture, $"| {(firstError is null ? "" : firstError.Replace("|", "\\|", StringComparison.Ordinal))} |\n");
        }

        MarkdownReport.WriteNotMeasured(text, run, shape);
    }

    private static string Latency(IEnumerable<WebSocketSample> samples, Func<WebSocketEchoResult, double> figure)
        => Spread.Of(samples.Select(s => figure(s.Echo))) is { } spread ? Units.Latency(spread.Median) : "—";
}
