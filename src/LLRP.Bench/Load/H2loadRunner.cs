using System.Globalization;
using LLRP.Bench.Processes;

namespace LLRP.Bench.Load;

/// <summary>
/// Runs <c>h2load -c N -m M -D S</c> over h2c (prior knowledge) for a shape with <see cref="LoadShape.StreamsPerConnection"/>,
/// POSTing a body file of the shape's size when it is a POST, or the gRPC unary request (<see cref="LoadShape.GrpcByH2load"/>); pinned to the load CPU when the run is pinned. h2load prints
/// no percentiles, so each run writes its per-request log (<c>--log-file</c>), read by <see cref="H2loadOutputParser"/> and
/// then deleted.
/// </summary>
/// <param name="workDirectory">Where the request bodies and the per-request logs are written.</param>
/// <param name="cpus">The <c>taskset -c</c> list for h2load, or null when unpinned.</param>
public sealed class H2loadRunner(string workDirectory, string? cpus)
{
    /// <summary>Runs h2load; the raw output is always returned, the parsed result when h2load produced one.</summary>
    public async Task<(WrkResult? Result, string Output)> RunAsync(
        int port, LoadShape shape, int seconds, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(workDirectory);
        var log = Path.Combine(workDirectory, $"h2load-{Guid.NewGuid():N}.tsv");
        List<string> arguments =
        [
            "-c", shape.Connections.ToString(CultureInfo.InvariantCulture),
            "-m", shape.StreamsPerConnection.ToString(CultureInfo.InvariantCulture),
            "-t", "1",
            "-D", seconds.ToString(CultureInfo.InvariantCulture),
            $"--log-file={log}",
        ];
        if (shape.GrpcByH2load)
        {
            arguments.AddRange(["-d", await GrpcRequestFileAsync(cancellationToken), "-H", "content-type: application/grpc", "-H", "te: trailers"]);
        }
        else if (shape.IsPost)
        {
            arguments.AddRange(["-d", await BodyFileAsync(shape.RequestBodyBytes, cancellationToken), "-H", "content-type: application/octet-stream"]);
        }

        arguments.Add($"http://127.0.0.1:{port}{shape.Path}");
        try
        {
            var result = await Command.RunAsync("h2load", arguments, cpus, TimeSpan.FromSeconds(seconds + 30), cancellationToken);
            var output = $"$ h2load {string.Join(' ', arguments)}\n{result.StandardOutput}{result.StandardError}";
            if (result.ExitCode != 0)
            {
                return (null, output + (result.TimedOut ? "\n(h2load timed out)" : $"\n(h2load exited with code {result.ExitCode})"));
            }

            try
            {
                var requestLog = File.Exists(log) ? await File.ReadAllTextAsync(log, cancellationToken) : "";
                return (H2loadOutputParser.Parse(result.StandardOutput, requestLog, seconds), output);
            }
            catch (FormatException e)
            {
                return (null, output + $"\n({e.Message})");
            }
        }
        finally
        {
            File.Delete(log);
        }
    }

    /// <summary>The gRPC unary request's body (<see cref="GrpcEchoRequest.Framed"/>), written once per run.</summary>
    private Task<string> GrpcRequestFileAsync(CancellationToken cancellationToken)
        => FileOnceAsync("h2load-grpc-echo.bin", GrpcEchoRequest.Framed, cancellationToken);

    private Task<string> BodyFileAsync(int bytes, CancellationToken cancellationToken)
        => FileOnceAsync($"h2load-body-{bytes}.bin", () => Enumerable.Repeat((byte)'x', bytes).ToArray(), cancellationToken);

    /// <summary>The path of file <paramref name="name"/> in the work directory, written with <paramref name="content"/> when it is not there yet.</summary>
    private async Task<string> FileOnceAsync(string name, Func<byte[]> content, CancellationToken cancellationToken)
    {
        var path = Path.Combine(workDirectory, name);
        if (!File.Exists(path))
        {
            await File.WriteAllBytesAsync(path, content(), cancellationToken);
        }

        return path;
    }
}
