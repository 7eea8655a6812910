using LLRP.Bench.Load;
using LLRP.Bench.Results;

namespace LLRP.Bench.Reports;

/// <summary>
/// A contender's figures as crank results. Per shape, crank's wrk names (<c>wrk/rps/mean</c>, <c>wrk/requests</c>,
/// <c>wrk/latency/mean|50|75|90|99|max</c> in ms, <c>wrk/errors/badresponses|socketerrors</c>) and the proxy's
/// (<c>proxy/cpu/us-per-request</c>, <c>proxy/memory/peak-rss</c> in MB, <c>proxy/gc/bytes-per-request</c>);
/// for a WebSocket echo shape <c>ws/messages-per-second</c>, <c>ws/messages</c>, <c>ws/throughput</c> (MB/s each way),
/// <c>ws/latency/mean|50|99|max</c> (ms), <c>ws/errors</c> and the proxy's <c>proxy/cpu/us-per-message</c>,
/// <c>proxy/memory/peak-rss</c>, <c>proxy/gc/bytes-per-message</c>; then <c>large/download|upload/throughput</c> (MB/s), <c>.../peak-rss</c> (MB) and <c>.../cpu</c> (s); then
/// <c>idle/rss-per-connection</c> (KiB), <c>idle/upstream-connections</c> and <c>idle/connections</c>.
/// </summary>
public static class CrankMetrics
{
    public static List<CrankMetric> Of(RunResult run, string contender)
    {
        var metrics = new List<CrankMetric>();
        foreach (var shape in run.Shapes.Where(s => !s.IsWebSocket))
        {
            var samples = run.Samples.Where(s => s.Contender == contender && s.Shape == shape).ToList();
            void Add(string name, string description, string format, bool isLoad, Func<ShapeSample, double?> figure)
                => metrics.Add(new CrankMetric(
                    $"{shape.Name}/{name}",
                    $"{shape.Title}: {description}",
                    format,
                    isLoad,
                    [.. samples.Where(s => figure(s) is not null).Select(s => (s.Timestamp, figure(s)!.Value))]));

            Add("wrk/rps/mean", "Requests/sec", "n0", true, s => Round(s.Wrk.RequestsPerSecond, 2));
            Add("wrk/requests", "Requests", "n0", true, s => s.Wrk.Requests);
            Add("wrk/latency/mean", "Mean latency (ms)", "n2", true, s => Milliseconds(s.Wrk.LatencyMeanMicroseconds));
            Add("wrk/latency/50", "Latency 50th (ms)", "n2", true, s => Milliseconds(s.Wrk.LatencyP50Microseconds));
            Add("wrk/latency/75", "Latency 75th (ms)", "n2", true, s => Milliseconds(s.Wrk.LatencyP75Microseconds));
            Add("wrk/latency/90", "Latency 90th (ms)", "n2", true, s => Milliseconds(s.Wrk.LatencyP90Microseconds));
            Add("wrk/latency/99", "Latency 99th (ms)", "n2", true, s => Milliseconds(s.Wrk.LatencyP99Microseconds));
            Add("wrk/latency/max", "Max latency (ms)", "n2", true, s => Milliseconds(s.Wrk.LatencyMaxMicroseconds));
            Add("wrk/errors/badresponses", "Bad responses (non-2xx)", "n0", true, s => s.Wrk.Non2xxResponses);
            Add("wrk/errors/socketerrors", "Socket errors", "n0", true, s => s.Wrk.SocketErrors);
            Add("proxy/cpu/us-per-request", "Proxy CPU per request (µs)", "n2", false, s => Round(s.CpuMicrosecondsPerRequest, 3));
            Add("proxy/memory/peak-rss", "Proxy peak RSS (MB)", "n0", false, s => Round(s.PeakResidentBytes / 1e6, 1));
            Add("proxy/gc/bytes-per-request", "Allocated per request (B)", "n0", false, s => Round(s.AllocatedBytesPerRequest, 1));
        }

        foreach (var shape in run.Shapes.Where(s => s.IsWebSocket))
        {
            var samples = run.WebSocketSamples.Where(s => s.Contender == contender && s.Shape == shape).ToList();
            void Add(string name, string description, string format, bool isLoad, Func<WebSocketSample, double?> figure)
                => metrics.Add(new CrankMetric(
                    $"{shape.Name}/{name}",
                    $"{shape.Title}: {description}",
                    format,
                    isLoad,
                    [.. samples.Where(s => figure(s) is not null).Select(s => (s.Timestamp, figure(s)!.Value))]));

            Add("ws/messages-per-second", "Messages/sec (round trips)", "n0", true, s => Round(s.Echo.MessagesPerSecond, 2));
            Add("ws/messages", "Messages", "n0", true, s => s.Echo.Messages);
            Add("ws/throughput", "Throughput each way (MB/s)", "n2", true, s => Round(s.Echo.MegabytesPerSecondEachWay, 2));
            Add("ws/latency/mean", "Mean round trip (ms)", "n2", true, s => Milliseconds(s.Echo.LatencyMeanMicroseconds));
            Add("ws/latency/50", "Round trip 50th (ms)", "n2", true, s => Milliseconds(s.Echo.LatencyP50Microseconds));
            Add("ws/latency/99", "Round trip 99th (ms)", "n2", true, s => Milliseconds(s.Echo.LatencyP99Microseconds));
            Add("ws/latency/max", "Max round trip (ms)", "n2", true, s => Milliseconds(s.Echo.LatencyMaxMicroseconds));
            Add("ws/errors", "Connections ended by an error", "n0", true, s => s.Echo.Errors);
            Add("proxy/cpu/us-per-message", "Proxy CPU per message (µs)", "n2", false, s => Round(s.CpuMicrosecondsPerMessage, 3));
            Add("proxy/memory/peak-rss", "Proxy peak RSS (MB)", "n0", false, s => Round(s.PeakResidentBytes / 1e6, 1));
            Add("proxy/gc/bytes-per-message", "Allocated per message (B)", "n0", false, s => Round(s.AllocatedBytesPerMessage, 1));
        }

        foreach (var direction in new[] { TransferDirection.Download, TransferDirection.Upload })
        {
            var samples = run.LargeBodySamples.Where(s => s.Contender == contender && s.Direction == direction && s.Error is null).ToList();
            var label = direction.ToString().ToLowerInvariant();
            void Add(string name, string description, string format, bool isLoad, Func<LargeBodySample, double?> figure)
                => metrics.Add(new CrankMetric(
                    $"large/{label}/{name}",
                    $"1 GiB {label}: {description}",
                    format,
                    isLoad,
                    [.. samples.Where(s => figure(s) is not null).Select(s => (s.Timestamp, figure(s)!.Value))]));

            Add("throughput", "Throughput (MB/s)", "n0", true, s => Round(s.MegabytesPerSecond, 1));
            Add("peak-rss", "Proxy peak RSS (MB)", "n0", false, s => Round(s.PeakResidentBytes / 1e6, 1));
            Add("cpu", "Proxy CPU (s)", "n2", false, s => Round(s.CpuSeconds, 3));
        }

        var idle = run.IdleSamples.Where(s => s.Contender == contender).ToList();
        void AddIdle(string name, string description, string format, Func<IdleSample, double?> figure)
            => metrics.Add(new CrankMetric(
                $"idle/{name}",
                $"Idle connections: {description}",
                format,
                false,
                [.. idle.Where(s => figure(s) is not null).Select(s => (s.Timestamp, figure(s)!.Value))]));

        AddIdle("rss-per-connection", "Proxy RSS growth per idle connection (KiB)", "n2", s => Round(s.BytesPerConnection / 1024, 2));
        AddIdle("upstream-connections", "Upstream connections held while idle", "n0", s => s.UpstreamConnections);
        AddIdle("connections", "Idle connections open", "n0", s => s.Opened);
        return metrics;
    }

    private static double? Milliseconds(double microseconds) => double.IsNaN(microseconds) ? null : Round(microseconds / 1e3, 3);

    private static double? Round(double? value, int digits) => value is { } v ? Math.Round(v, digits) : null;
}
