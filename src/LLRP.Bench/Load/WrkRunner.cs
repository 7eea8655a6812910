using System.Globalization;
using LLRP.Bench.Processes;

namespace LLRP.Bench.Load;

/// <summary>
/// Runs <c>wrk -t1 -c N -d S --latency</c> with scripts/wrk/status.lua (GET) or post.lua (POST), which count
/// non-2xx responses, over http or https (wrk does not check the certificate) as the shape's client leg says; pinned to
/// the load CPU when the run is pinned.
/// </summary>
/// <param name="scriptsDirectory">scripts/wrk of the repository.</param>
/// <param name="cpus">The <c>taskset -c</c> list for wrk, or null when unpinned.</param>
public sealed class WrkRunner(string scriptsDirectory, string? cpus)
{
    /// <summary>Runs wrk; the raw output is always returned, the parsed result when wrk produced one.</summary>
    public async Task<(WrkResult? Result, string Output)> RunAsync(
        int port, LoadShape shape, int seconds, CancellationToken cancellationToken)
    {
        List<string> arguments =
        [
            "-t1",
            $"-c{shape.Connections}",
            $"-d{seconds}s",
            "--latency",
            "--timeout", "10s",
            "-s", Path.Combine(scriptsDirectory, shape.IsPost ? "post.lua" : "status.lua"),
            $"{shape.Legs.ClientScheme}://127.0.0.1:{port}{shape.Path}",
        ];
        if (shape.ConnectionClose)
        {
            arguments.InsertRange(0, ["-H", "Connection: close"]);
        }

        if (shape.IsPost)
        {
            arguments.Add("--");
            arguments.Add(shape.RequestBodyBytes.ToString(CultureInfo.InvariantCulture));
        }

        var result = await Command.RunAsync("wrk", arguments, cpus, TimeSpan.FromSeconds(seconds + 30), cancellationToken);
        var output = $"$ wrk {string.Join(' ', arguments)}\n{result.StandardOutput}{result.StandardError}";
        if (result.ExitCode != 0)
        {
            return (null, output + (result.TimedOut ? "\n(wrk timed out)" : $"\n(wrk exited with code {result.ExitCode})"));
        }

        try
        {
            return (WrkOutputParser.Parse(result.StandardOutput), output);
        }
        catch (FormatException)
        {
            return (null, output);
        }
    }
}
