using System.Runtime.InteropServices;
using System.Text.Json;
using System.Text.Json.Nodes;
using LLRP.Bench.Contenders;
using LLRP.Bench.Results;

namespace LLRP.Bench.Reports;

/// <summary>
/// Writes the run in the shape of crank's <c>--json</c> file (Microsoft.Crank.Controller's <c>ExecutionResult</c>:
/// <c>returnCode</c>, <c>jobResults.jobs.&lt;job&gt;.{results, metadata, dependencies, measurements, environment,
/// variables, benchmarks}</c>, <c>jobResults.properties</c>, <c>benchmarks</c>; camelCase as crank writes it):
/// <list type="bullet">
/// <item><c>results.json</c>: one job per contender, with every shape's figures (names prefixed by the shape),
/// so <c>crank compare old/results.json new/results.json</c> compares two runs contender by contender;</item>
/// <item><c>crank/&lt;contender&gt;.json</c>: the jobs <c>load</c> (wrk, curl) and <c>application</c> (CPU,
/// memory) of a crank scenario run, so <c>crank compare crank/nginx.json crank/llrp-raw-perclient.json</c>
/// compares contenders the way the original LLRP README does (the first file's rows are shown).</item>
/// </list>
/// </summary>
public static class CrankJsonReport
{
    private static readonly JsonSerializerOptions _indented = new() { WriteIndented = true };

    public static void Write(RunResult run, string directory)
    {
        var perContender = Path.Combine(directory, "crank");
        Directory.CreateDirectory(perContender);
        var all = new JsonObject();
        foreach (var contender in run.Measured)
        {
            var metrics = CrankMetrics.Of(run, contender.Name);
            all[contender.Name] = JobResult(run, contender, metrics);
            var jobs = new JsonObject
            {
                ["load"] = JobResult(run, contender, metrics.Where(m => m.IsLoad)),
                ["application"] = JobResult(run, contender, metrics.Where(m => !m.IsLoad)),
            };
            File.WriteAllText(Path.Combine(perContender, contender.Name + ".json"), ExecutionResult(run, jobs).ToJsonString(_indented));
        }

        File.WriteAllText(Path.Combine(directory, "results.json"), ExecutionResult(run, all).ToJsonString(_indented));
    }

    private static JsonObject ExecutionResult(RunResult run, JsonObject jobs) => new()
    {
        ["returnCode"] = run.Interrupted ? 1 : 0,
        ["jobResults"] = new JsonObject
        {
            ["jobs"] = jobs,
            ["properties"] = new JsonObject
            {
                ["run"] = run.Started.ToString("O"),
                ["finished"] = run.Finished.ToString("O"),
                ["machine"] = run.Machine,
                ["placement"] = run.Topology,
                ["origins"] = run.Origins.Describe(),
                ["baseline"] = run.Baseline ?? "none",
                ["missing"] = string.Join("; ", run.Missing.Select(m => $"{m.Key}: {m.Value}")),
            },
        },
        ["benchmarks"] = new JsonArray(),
    };

    private static JsonObject JobResult(RunResult run, Contender contender, IEnumerable<CrankMetric> metrics)
    {
        var results = new JsonObject();
        var metadata = new JsonArray();
        var measurements = new JsonArray();
        foreach (var metric in metrics)
        {
            if (Spread.Of(metric.Values.Select(v => v.Value)) is not { } spread)
            {
                continue;
            }

            results[metric.Name] = spread.Median;
            metadata.Add(new JsonObject { ["name"] = metric.Name, ["description"] = metric.Description, ["format"] = metric.Format });
            foreach (var (timestamp, value) in metric.Values)
            {
                measurements.Add(new JsonObject { ["timestamp"] = timestamp.ToString("O"), ["name"] = metric.Name, ["value"] = value });
            }
        }

        var options = run.Options;
        return new JsonObject
        {
            ["results"] = results,
            ["metadata"] = metadata,
            ["dependencies"] = new JsonArray(),
            ["measurements"] = new JsonArray(measurements),
            ["environment"] = new JsonObject
            {
                ["platform"] = "linux",
                ["architecture"] = RuntimeInformation.OSArchitecture.ToString().ToLowerInvariant(),
                ["os"] = RuntimeInformation.OSDescription,
                ["machine"] = run.Machine,
            },
            ["variables"] = new JsonObject
            {
                ["contender"] = contender.Name,
                ["description"] = contender.Description,
                ["rounds"] = options.Rounds,
                ["warmup"] = options.WarmupSeconds,
                ["duration"] = options.DurationSeconds,
                ["pinned"] = options.Pinned,
                ["origin"] = run.Origins.ShapesOrigin.ToString().ToLowerInvariant(),
                ["idleConnections"] = run.IdleSamples.Select(s => s.Requested).DefaultIfEmpty(0).Max(),
                ["transport"] = run.Transports.GetValueOrDefault(contender.Name),
            },
            ["benchmarks"] = new JsonArray(),
        };
    }
}
