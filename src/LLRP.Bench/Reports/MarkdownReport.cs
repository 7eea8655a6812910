using System.Globalization;
using System.Text;
using LLRP.Bench.Contenders;
using LLRP.Bench.Load;
using LLRP.Bench.Results;

namespace LLRP.Bench.Reports;

/// <summary>
/// results.md: one table per shape (the WebSocket echo's by <see cref="WebSocketReport"/>), one for the large bodies, one for
/// the idle connections, then what is missing and why.
/// </summary>
public static class MarkdownReport
{
    public static string Write(RunResult run)
    {
        var options = run.Options;
        var text = new StringBuilder();
        var baseline = run.Baseline;
        text.Append(CultureInfo.InvariantCulture, $"# LLRP side-by-side benchmark, {run.Started:yyyy-MM-dd HH:mm:ss} UTC\n\n");
        text.Append(CultureInfo.InvariantCulture, $"- machine: {run.Machine}\n");
        text.Append(CultureInfo.InvariantCulture, $"- took: {Units.Duration(run.Finished - run.Started)}\n");
        text.Append(CultureInfo.InvariantCulture, $"- placement: {run.Topology}\n");
        text.Append(CultureInfo.InvariantCulture, $"- origins: {run.Origins.Describe()}\n");
        text.Append(CultureInfo.InvariantCulture, $"- load: `wrk -t1 -c<conns> --latency`, {options.WarmupSeconds} s warm-up + {options.DurationSeconds} s measured per contender and shape (https shapes: wrk over TLS; HTTP/2 shapes: `h2load -t1 -c<conns> -m<streams> -D<seconds>` over h2c, its warm-up a run of its own, p99 from its `--log-file`; gRPC shapes: Grpc.Net.Client in the runner, channels × calls in flight, its warm-up a run of its own, or h2load POSTing a gRPC-framed request after a check call, its 2xx matched against the origin's count of calls answered OK; the WebSocket echo: see its table); {options.Rounds} round(s), contenders interleaved; medians (min–max) over rounds\n");
        text.Append("- bad: non-2xx responses + socket errors, summed over rounds; CPU µs/req: user + system CPU of the contender's processes over the window ÷ requests; ");
        text.Append("peak RSS: VmHWM of its processes, reset before each window; alloc B/req: System.Runtime `alloc-rate` (EventPipe) ÷ requests/s\n");
        text.Append(CultureInfo.InvariantCulture, $"- ×baseline: {(baseline is null ? $"none ({string.Join(", ", ContenderCatalog.BaselineCandidates)} have no results)" : $"`{baseline}`")}\n");
        if (run.Transports.Count > 0)
        {
            text.Append(CultureInfo.InvariantCulture, $"- transports (LLRP's startup report): {string.Join(", ", run.Transports.Select(t => $"`{t.Key}` {t.Value}"))}\n");
        }

        if (run.Interrupted)
        {
            text.Append("- **interrupted**: partial results\n");
        }

        foreach (var shape in run.Shapes)
        {
            if (shape.IsWebSocket)
            {
                WebSocketReport.Write(text, run, shape);
            }
            else
            {
                WriteShape(text, run, shape, baseline);
            }
        }

        if (run.LargeBodySamples.Count > 0)
        {
            WriteLargeBodies(text, run);
        }

        if (run.IdleSamples.Count > 0)
        {
            IdleReport.Write(text, run);
        }

        if (run.SyscallSamples.Count > 0)
        {
            SyscallReport.Write(text, run);
        }

        if (run.Missing.Count > 0)
        {
            text.Append("\n## Missing contenders\n\n");
            foreach (var contender in run.Contenders.Where(c => run.Missing.ContainsKey(c.Name)))
            {
                text.Append(CultureInfo.InvariantCulture, $"- `{contender.Name}` ({contender.Description}): {run.Missing[contender.Name]}\n");
            }
        }

        if (run.Notes.Count > 0)
        {
            text.Append("\n## Notes\n\n");
            foreach (var note in run.Notes)
            {
                text.Append(CultureInfo.InvariantCulture, $"- {note}\n");
            }
        }

        return text.ToString();
    }

    private static void WriteShape(StringBuilder text, RunResult run, LoadShape shape, string? baseline)
    {
        var samples = run.Samples.Where(s => s.Shape == shape).ToList();
        var method = shape.IsPost ? $"POST {shape.Path} ({shape.RequestBodyBytes} B body)" : $"GET {shape.Path}";
        var legs = shape.GrpcByH2load
            ? $", `-m{shape.StreamsPerConnection}` (h2load POSTing one gRPC-framed Echo request, `content-type: application/grpc`, `te: trailers`); HTTP/2 with prior knowledge (h2c) on both legs, to the bundled origin's Echo service; a contender whose check call failed or whose 2xx count the origin's count of calls answered OK does not match has no result"
            : shape.Grpc
            ? $" channels × {shape.StreamsPerConnection} calls in flight (Grpc.Net.Client in the runner); HTTP/2 with prior knowledge (h2c) on both legs, to the bundled origin's Echo service"
            : shape.Legs.OriginHttp2
            ? $", `-m{shape.StreamsPerConnection}`; HTTP/2 with prior knowledge (h2c) on both legs (direct: h2load → the h2c origin)"
                + (shape.OriginMaxStreams > 0 ? $"; the origin allows {shape.OriginMaxStreams} concurrent streams per connection" : "")
            : shape.IsHttp2
            ? $", `-m{shape.StreamsPerConnection}`; client → contender HTTP/2 with prior knowledge (h2c), contender → origin HTTP/1.1 (direct: h2load → the origin's h2c listener)"
            : shape.Legs.AnyTls
            ? $"; client → contender {shape.Legs.ClientScheme}, contender → origin {shape.Legs.OriginScheme} (direct: wrk → origin over {shape.Legs.ClientScheme})"
            : "";
        text.Append(CultureInfo.InvariantCulture, $"\n## {shape.Title}\n\n`{(shape.Grpc ? $"unary {shape.Path}" : method)}`, `-c{shape.Connections}`{legs}\n\n");
        if (samples.Count == 0)
        {
            text.Append("No results.\n");
            WriteNotMeasured(text, run, shape);
            return;
        }

        text.Append(CultureInfo.InvariantCulture, $"| contender | rps median (min–max) | ×direct | ×baseline ({baseline ?? "none"}) | latency mean / p50 / p99 / max | bad | CPU µs/req | peak RSS MB | alloc B/req |");
        text.Append(shape.IsBalance ? BalanceColumns.Header(run) + "\n" : "\n");
        text.Append("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        text.Append(shape.IsBalance ? BalanceColumns.Alignment + "\n" : "\n");
        var direct = Rps(samples, "direct");
        var reference = baseline is null ? null : Rps(samples, baseline);
        foreach (var contender in run.Measured)
        {
            var own = samples.Where(s => s.Contender == contender.Name).ToList();
            if (Rps(samples, contender.Name) is not { } rps)
            {
                continue;
            }

            var cpu = Spread.Of(own.Select(s => s.CpuMicrosecondsPerRequest ?? double.NaN));
            var peak = own.Select(s => s.PeakResidentBytes).Max();
            var allocation = Spread.Of(own.Select(s => s.AllocatedBytesPerRequest ?? double.NaN));
            text.Append(CultureInfo.InvariantCulture, $"| {contender.Name} ");
            text.Append(CultureInfo.InvariantCulture, $"| {Units.Count(rps.Median)} ({Units.Count(rps.Min)}–{Units.Count(rps.Max)}) ");
            text.Append(CultureInfo.InvariantCulture, $"| {(direct is { } d ? Units.Ratio(rps.Median / d.Median) : "—")} ");
            text.Append(CultureInfo.InvariantCulture, $"| {(reference is { } r ? Units.Ratio(rps.Median / r.Median) : "—")} ");
            text.Append(CultureInfo.InvariantCulture, $"| {Latency(own, w => w.LatencyMeanMicroseconds)} / {Latency(own, w => w.LatencyP50Microseconds)} / {Latency(own, w => w.LatencyP99Microseconds)} / {Latency(own, w => w.LatencyMaxMicroseconds)} ");
            text.Append(CultureInfo.InvariantCulture, $"| {own.Sum(s => s.Wrk.BadResponses)} ");
            text.Append(CultureInfo.InvariantCulture, $"| {(cpu is { } c ? $"{Units.Decimal(c.Median, 1)} ({Units.Decimal(c.Min, 1)}–{Units.Decimal(c.Max, 1)})" : "—")} ");
            text.Append(CultureInfo.InvariantCulture, $"| {(peak is { } p ? Units.Megabytes(p) : "—")} ");
            text.Append(CultureInfo.InvariantCulture, $"| {(allocation is { } a ? Units.Count(a.Median) : contender.Kind == ContenderKind.DotNet ? "n/a" : "—")} |");
            text.Append(shape.IsBalance ? BalanceColumns.Cells(contender, own) + "\n" : "\n");
        }

        if (shape.IsBalance)
        {
            text.Append(BalanceColumns.Legend(run));
        }

        WriteNotMeasured(text, run, shape);
        WriteLayers(text, samples);
    }

    /// <summary>One line per contender that has other results but none for <paramref name="shape"/>, and why.</summary>
    public static void WriteNotMeasured(StringBuilder text, RunResult run, LoadShape shape)
    {
        foreach (var contender in run.Measured)
        {
            if (run.NotMeasured.TryGetValue((contender.Name, shape.Name), out var reason))
            {
                text.Append(CultureInfo.InvariantCulture, $"\n- `{contender.Name}`: no result, {reason}");
            }
        }

        if (run.Measured.Any(c => run.NotMeasured.ContainsKey((c.Name, shape.Name))))
        {
            text.Append('\n');
        }
    }

    /// <summary>What each layer of <see cref="ContenderCatalog.Layers"/> adds, as differences of median CPU µs per request.</summary>
    private static void WriteLayers(StringBuilder text, List<ShapeSample> samples)
    {
        var layers = ContenderCatalog.Layers
            .Select(layer => (layer.Contender, layer.Layer, Cpu: Spread.Of(samples.Where(s => s.Contender == layer.Contender).Select(s => s.CpuMicrosecondsPerRequest ?? double.NaN))))
            .Where(layer => layer.Cpu is not null)
            .ToList();
        if (layers.Count < 2)
        {
            return;
        }

        text.Append("\nCost of each layer (median CPU µs per request, each row adding one layer to the row above):\n\n");
        text.Append("| contender | adds | CPU µs/req | added µs/req |\n|---|---|---:|---:|\n");
        double? previous = null;
        foreach (var (contender, layer, cpu) in layers)
        {
            var median = cpu!.Value.Median;
            var added = previous is { } p ? (median >= p ? "+" : "") + Units.Decimal(median - p, 1) : "—";
            text.Append(CultureInfo.InvariantCulture, $"| {contender} | {layer} | {Units.Decimal(median, 1)} | {added} |\n");
            previous = median;
        }
    }

    private static void WriteLargeBodies(StringBuilder text, RunResult run)
    {
        text.Append("\n## Large bodies (1 GiB through the contender, curl)\n\n");
        text.Append("×direct: the contender's median ÷ direct's; × paired direct: the median over rounds of the contender's MB/s ÷ the same\n");
        text.Append("transfer's straight to the origin, made just before it.\n\n");
        text.Append("| contender | download MB/s median (min–max) | ×direct | × paired direct (min–max) | peak RSS MB | CPU s | upload MB/s median (min–max) | ×direct | × paired direct (min–max) | peak RSS MB | CPU s | failures |\n");
        text.Append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        foreach (var contender in run.Measured)
        {
            var own = run.LargeBodySamples.Where(s => s.Contender == contender.Name).ToList();
            if (own.Count == 0)
            {
                continue;
            }

            text.Append(CultureInfo.InvariantCulture, $"| {contender.Name} ");
            foreach (var direction in new[] { TransferDirection.Download, TransferDirection.Upload })
            {
                var ok = own.Where(s => s.Direction == direction && s.Error is null).ToList();
                var speed = Spread.Of(ok.Select(s => s.MegabytesPerSecond));
                var direct = Spread.Of(run.LargeBodySamples.Where(s => s.Contender == "direct" && s.Direction == direction && s.Error is null).Select(s => s.MegabytesPerSecond));
                var peak = ok.Select(s => s.PeakResidentBytes).Max();
                var cpu = Spread.Of(ok.Select(s => s.CpuSeconds ?? double.NaN));
                text.Append(CultureInfo.InvariantCulture, $"| {(speed is { } v ? $"{Units.Count(v.Median)} ({Units.Count(v.Min)}–{Units.Count(v.Max)})" : "—")} ");
                var paired = Spread.Of(ok.Select(s => s.PerPairedDirect ?? double.NaN));
                text.Append(CultureInfo.InvariantCulture, $"| {(speed is { } s && direct is { } d ? Units.Ratio(s.Median / d.Median) : "—")} ");
                text.Append(CultureInfo.InvariantCulture, $"| {(paired is { } r ? $"{Units.Ratio(r.Median)} ({Units.Ratio(r.Min)}–{Units.Ratio(r.Max)})" : "—")} ");
                text.Append(CultureInfo.InvariantCulture, $"| {(peak is { } p ? Units.Megabytes(p) : "—")} ");
                text.Append(CultureInfo.InvariantCulture, $"| {(cpu is { } c ? Units.Decimal(c.Median, 2) : "—")} ");
            }

            var failures = own.Where(s => s.Error is not null).Select(s => $"r{s.Round} {s.Direction.ToString().ToLowerInvariant()}: {s.Error}");
            text.Append(CultureInfo.InvariantCulture, $"| {string.Join("; ", failures)} |\n");
        }
    }

    private static Spread? Rps(IEnumerable<ShapeSample> samples, string contender)
        => Spread.Of(samples.Where(s => s.Contender == contender).Select(s => s.Wrk.RequestsPerSecond));

    private static string Latency(IEnumerable<ShapeSample> samples, Func<WrkResult, double> figure)
        => Spread.Of(samples.Select(s => figure(s.Wrk))) is { } spread ? Units.Latency(spread.Median) : "—";
}
