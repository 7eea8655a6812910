using LLRP.Bench.Load;
using LLRP.Bench.Results;

namespace LLRP.Bench.Reports;

/// <summary>
/// A contender's figures as crank results. Per shape, crank's wrk names (<c>wrk/rps/mean</c>, <c>wrk/requests</c>,
/// <c>wrk/latency/mean|50|75|90|99|max</c> in ms, <c>wrk/errors/badresponses|socketerrors</c>) and the proxy's
/// (<c>proxy/cpu/us-per-request</c>, <c>proxy/memory/peak-rss</c> in MB, <c>proxy/gc/bytes-per-request</c>), and for a
/// balancing shape what each origin received (<c>origins/fast-1/requests</c>, …);
/// for a WebSocket echo shape <c>ws/messages-per-second</c>, <c>ws/messages</c>, <c>ws/throughput</c> (MB/s each way),
/// <c>ws/latency/mean|50|99|max</c> (ms), <c>ws/errors</c> and the proxy's <c>proxy/cpu/us-per-message</c>,
/// <c>proxy/memory/peak-rss</c>, <c>proxy/gc/bytes-per-message</c>; then <c>large/download|upload/throughput</c> (MB/s), <c>.../peak-rss</c> (MB) and <c>.../cpu</c> (s); then
/// <c>idle/rss-per-connection</c> (KiB), <c>idle/upstream-connections</c> and <c>idle/connections</c>; then
/// <c>syscalls/per-request</c> and <c>syscalls/failed-receives-per-request</c> (<see cref="Processes.SyscallProbe"/>).
/// </summary>
public static class CrankMetrics
{
    public static List<CrankMetric> Of(RunResult run, string contender)
    {
        var metrics = new List<CrankMetric>();
        foreach (var shape in run.Shapes.Where(s => !s.IsWebSocket))
        {
            var series = new MetricSeries<ShapeSample>(
                metrics, shape.Name, shape.Title, [.. run.Samples.Where(s => s.Contender == contender && s.Shape == shape)], s => s.Timestamp);

            series.Add("wrk/rps/mean", "Requests/sec", "n0", true, s => Round(s.Wrk.RequestsPerSecond, 2));
            series.Add("wrk/requests", "Requests", "n0", true, s => s.Wrk.Requests);
            series.Add("wrk/latency/mean", "Mean latency (ms)", "n2", true, s => Milliseconds(s.Wrk.LatencyMeanMicroseconds));
            series.Add("wrk/latency/50", "Latency 50th (ms)", "n2", true, s => Milliseconds(s.Wrk.LatencyP50Microseconds));
            series.Add("wrk/latency/75", "Latency 75th (ms)", "n2", true, s => Milliseconds(s.Wrk.LatencyP75Microseconds));
            series.Add("wrk/latency/90", "Latency 90th (ms)", "n2", true, s => Milliseconds(s.Wrk.LatencyP90Microseconds));
            series.Add("wrk/latency/99", "Latency 99th (ms)", "n2", true, s => Milliseconds(s.Wrk.LatencyP99Microseconds));
            series.Add("wrk/latency/max", "Max latency (ms)", "n2", true, s => Milliseconds(s.Wrk.LatencyMaxMicroseconds));
            series.Add("wrk/errors/badresponses", "Bad responses (non-2xx)", "n0", true, s => s.Wrk.Non2xxResponses);
            series.Add("wrk/errors/socketerrors", "Socket errors", "n0", true, s => s.Wrk.SocketErrors);
            series.Add("proxy/cpu/us-per-request", "Proxy CPU per request (µs)", "n2", false, s => Round(s.CpuMicrosecondsPerRequest, 3));
            series.Add("proxy/memory/peak-rss", "Proxy peak RSS (MB)", "n0", false, s => Round(s.PeakResidentBytes / 1e6, 1));
            series.Add("proxy/gc/bytes-per-request", "Allocated per request (B)", "n0", false, s => Round(s.AllocatedBytesPerRequest, 1));
            var origins = shape.IsBalance ? run.Origins.Balance : [];
            for (var i = 0; i < origins.Count; i++)
            {
                var index = i;
                var label = origins[index].Label;
                series.Add($"origins/{label.Replace(' ', '-')}/requests", $"Requests received by the {label} origin", "n0", true, s => s.OriginRequests?[index]);
            }
        }

        foreach (var shape in run.Shapes.Where(s => s.IsWebSocket))
        {
            var series = new MetricSeries<WebSocketSample>(
                metrics, shape.Name, shape.Title, [.. run.WebSocketSamples.Where(s => s.Contender == contender && s.Shape == shape)], s => s.Timestamp);

            series.Add("ws/messages-per-second", "Messages/sec (round trips)", "n0", true, s => Round(s.Echo.MessagesPerSecond, 2));
            series.Add("ws/messages", "Messages", "n0", true, s => s.Echo.Messages);
            series.Add("ws/throughput", "Throughput each way (MB/s)", "n2", true, s => Round(s.Echo.MegabytesPerSecondEachWay, 2));
            series.Add("ws/latency/mean", "Mean round trip (ms)", "n2", true, s => Milliseconds(s.Echo.LatencyMeanMicroseconds));
            series.Add("ws/latency/50", "Round trip 50th (ms)", "n2", true, s => Milliseconds(s.Echo.LatencyP50Microseconds));
            series.Add("ws/latency/99", "Round trip 99th (ms)", "n2", true, s => Milliseconds(s.Echo.LatencyP99Microseconds));
            series.Add("ws/latency/max", "Max round trip (ms)", "n2", true, s => Milliseconds(s.Echo.LatencyMaxMicroseconds));
            series.Add("ws/errors", "Connections ended by an error", "n0", true, s => s.Echo.Errors);
            series.Add("proxy/cpu/us-per-message", "Proxy CPU per message (µs)", "n2", false, s => Round(s.CpuMicrosecondsPerMessage, 3));
            series.Add("proxy/memory/peak-rss", "Proxy peak RSS (MB)", "n0", false, s => Round(s.PeakResidentBytes / 1e6, 1));
            series.Add("proxy/gc/bytes-per-message", "Allocated per message (B)", "n0", false, s => Round(s.AllocatedBytesPerMessage, 1));
        }

        foreach (var direction in new[] { TransferDirection.Download, TransferDirection.Upload })
        {
            var label = direction.ToString().ToLowerInvariant();
            var series = new MetricSeries<LargeBodySample>(
                metrics,
                $"large/{label}",
                $"1 GiB {label}",
                [.. run.LargeBodySamples.Where(s => s.Contender == contender && s.Direction == direction && s.Error is null)],
                s => s.Timestamp);

            series.Add("throughput", "Throughput (MB/s)", "n0", true, s => Round(s.MegabytesPerSecond, 1));
            series.Add("per-paired-direct", "Throughput ÷ direct's, just before (×)", "n2", true, s => Round(s.PerPairedDirect, 3));
            series.Add("peak-rss", "Proxy peak RSS (MB)", "n0", false, s => Round(s.PeakResidentBytes / 1e6, 1));
            series.Add("cpu", "Proxy CPU (s)", "n2", false, s => Round(s.CpuSeconds, 3));
        }

        var syscalls = new MetricSeries<SyscallSample>(metrics, "syscalls", "System calls (strace -c, GET 10 B)", [.. run.SyscallSamples.Where(s => s.Contender == contender)], s => s.Timestamp);

        syscalls.Add("per-request", "System calls per request", "n2", false, s => Round(s.PerRequest, 3));
        syscalls.Add("failed-receives-per-request", "Failed receives (EAGAIN) per request", "n2", false, s => Round(s.FailedReceivesPerRequest, 3));
        var idle = new MetricSeries<IdleSample>(metrics, "idle", "Idle connections", [.. run.IdleSamples.Where(s => s.Contender == contender)], s => s.Timestamp);

        idle.Add("rss-per-connection", "Proxy RSS growth per idle connection (KiB)", "n2", false, s => Round(s.BytesPerConnection / 1024, 2));
        idle.Add("rss-slope-per-connection", "Proxy RSS per idle connection, slope over the steps (KiB)", "n2", false, s => Round(s.SlopeBytesPerConnection / 1024, 2));
        idle.Add("upstream-connections", "Upstream connections held while idle", "n0", false, s => s.UpstreamConnections);
        idle.Add("connections", "Idle connections open", "n0", false, s => s.Opened);
        return metrics;
    }

    private static double? Milliseconds(double microseconds) => double.IsNaN(microseconds) ? null : Round(microseconds / 1e3, 3);

    private static double? Round(double? value, int digits) => value is { } v ? Math.Round(v, digits) : null;
}
