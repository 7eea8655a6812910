using System.Runtime.InteropServices;
using LLRP.Bench.Contenders;
using LLRP.Bench.Load;
using LLRP.Bench.Processes;
using LLRP.Bench.Results;

namespace LLRP.Bench.Running;

/// <summary>
/// Runs DESIGN.md's benchmark method: the origin starts once; then, round after round, every contender in
/// turn (A B C A B C …) is started, measured under every shape and with the large bodies, and stopped.
/// When pinned, the contender runs on CPU 0 and the origin, wrk and curl on CPU 1.
/// </summary>
public static class BenchmarkRunner
{
    private const string ProxyCpu = "0";
    private const string LoadCpu = "1";
    private static readonly TimeSpan _startPlan = TimeSpan.FromSeconds(3);
    private static readonly TimeSpan _largeBodyPlan = TimeSpan.FromSeconds(5);
    private static readonly TransferDirection[] _directions = [TransferDirection.Download, TransferDirection.Upload];

    /// <summary>Selects what to run from the options; fills and returns the result, even when cancelled midway.</summary>
    /// <exception cref="ArgumentException">An unknown contender or shape name was asked for.</exception>
    /// <exception cref="InvalidOperationException">The origin could not be started.</exception>
    public static async Task<RunResult> RunAsync(BenchOptions options, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(options.ResultsDirectory);
        ChildProcessRegistry.UsePidFile(Path.Combine(options.ResultsDirectory, "children.pids"));
        var proxyPort = LoopbackPorts.FirstFree(options.ProxyPort);
        var originPort = LoopbackPorts.FirstFree(options.OriginPort, proxyPort);
        var contenders = Select(ContenderCatalog.Create(options, proxyPort, originPort), options.Only ?? (options.Quick ? ContenderCatalog.QuickNames : null), c => c.Name, "contender");
        var shapes = Select(LoadShapes.All, options.Shapes ?? (options.Quick ? [LoadShapes.Quick.Name] : null), s => s.Name, "shape");

        var result = new RunResult
        {
            Options = options,
            Started = DateTime.UtcNow,
            Contenders = contenders,
            Shapes = shapes,
            Topology = options.Pinned
                ? $"contender on 127.0.0.1:{proxyPort} pinned to CPU {ProxyCpu}; origin on 127.0.0.1:{originPort}, wrk and curl pinned to CPU {LoadCpu}"
                : $"contender on 127.0.0.1:{proxyPort}, origin on 127.0.0.1:{originPort}, unpinned",
            Machine = DescribeMachine(),
        };
        foreach (var contender in contenders.Where(c => c.UnavailableReason is not null))
        {
            result.Missing[contender.Name] = contender.UnavailableReason!;
        }

        using var http = new HttpClient(new SocketsHttpHandler { PooledConnectionLifetime = TimeSpan.Zero });
        var context = new RunContext
        {
            Options = options,
            Result = result,
            ProxyPort = proxyPort,
            OriginPort = originPort,
            ProxyCpus = options.Pinned ? ProxyCpu : null,
            LoadCpus = options.Pinned ? LoadCpu : null,
            Wrk = new WrkRunner(Path.Combine(options.RepositoryRoot, "scripts", "wrk"), options.Pinned ? LoadCpu : null),
            LargeBodies = new LargeBodyRunner(Path.Combine(Path.GetTempPath(), "llrp-bench-upload-1GiB.bin"), options.Pinned ? LoadCpu : null),
            Http = http,
        };

        await using var origin = await StartOriginAsync(context, cancellationToken);
        try
        {
            await RunRoundsAsync(context, cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            result.Interrupted = true;
            result.Notes.Add("the run was interrupted; the figures cover only what finished");
        }

        result.Finished = DateTime.UtcNow;
        return result;
    }

    private static async Task RunRoundsAsync(RunContext context, CancellationToken cancellationToken)
    {
        var options = context.Options;
        var result = context.Result;
        var shapePlan = TimeSpan.FromSeconds(options.WarmupSeconds + options.DurationSeconds + 1);
        var perContender = _startPlan + shapePlan * result.Shapes.Count + (options.LargeBodies ? _largeBodyPlan * 2 : TimeSpan.Zero);
        var progress = new ProgressReporter(perContender * options.Rounds * result.Measured.Count());

        for (var round = 1; round <= options.Rounds; round++)
        {
            foreach (var contender in result.Measured.ToList())
            {
                var where = $"round {round}/{options.Rounds} · {contender.Name}";
                progress.Report($"{where}: starting", _startPlan);
                var (session, error) = await ContenderSession.StartAsync(contender, context, round, cancellationToken);
                if (session is null)
                {
                    RecordFailure(result, contender, round, error!);
                    continue;
                }

                await using (session)
                {
                    foreach (var shape in result.Shapes)
                    {
                        progress.Report($"{where} · {shape.Title}", shapePlan);
                        if (await session.MeasureAsync(shape, cancellationToken) is { } sample)
                        {
                            result.Samples.Add(sample);
                        }

                        if (session.ExitDescription is { } exit)
                        {
                            result.Notes.Add($"round {round}, {contender.Name} stopped during {shape.Name}: {exit}");
                            break;
                        }
                    }

                    if (options.LargeBodies && session.ExitDescription is null)
                    {
                        foreach (var direction in _directions)
                        {
                            progress.Report($"{where} · 1 GiB {direction.ToString().ToLowerInvariant()}", _largeBodyPlan);
                            result.LargeBodySamples.Add(await session.TransferAsync(direction, cancellationToken));
                        }
                    }
                }
            }
        }
    }

    private static void RecordFailure(RunResult result, Contender contender, int round, string error)
    {
        if (result.Samples.Any(s => s.Contender == contender.Name))
        {
            result.Notes.Add($"round {round}, {contender.Name} did not start: {error}");
        }
        else
        {
            result.Missing[contender.Name] = error;
        }

        Console.Error.WriteLine($"  {contender.Name}: missing ({error})");
    }

    private static async Task<ChildProcess> StartOriginAsync(RunContext context, CancellationToken cancellationToken)
    {
        var dll = Path.Combine(context.Options.PublishRoot, "LLRP.Downstream", "LLRP.Downstream.dll");
        if (!File.Exists(dll))
        {
            throw new InvalidOperationException($"the origin is not built: {dll} is missing");
        }

        var origin = ChildProcess.Start(
            "dotnet",
            [dll, $"--urls=http://127.0.0.1:{context.OriginPort}"],
            new Dictionary<string, string> { ["DOTNET_gcServer"] = "0" },
            context.LoadCpus,
            Path.Combine(context.LogDirectory, "origin.log"));
        var error = await Readiness.WaitAsync(context.Http, context.OriginPort, origin, TimeSpan.FromSeconds(30), cancellationToken);
        if (error is not null)
        {
            await origin.DisposeAsync();
            throw new InvalidOperationException($"the origin did not start: {error}");
        }

        return origin;
    }

    private static List<T> Select<T>(IReadOnlyList<T> all, IReadOnlyList<string>? names, Func<T, string> nameOf, string kind)
    {
        if (names is null)
        {
            return [.. all];
        }

        var unknown = names.Where(n => !all.Any(item => nameOf(item) == n)).ToList();
        if (unknown.Count > 0)
        {
            throw new ArgumentException($"unknown {kind}(s) {string.Join(", ", unknown)}; known: {string.Join(", ", all.Select(nameOf))}");
        }

        return [.. all.Where(item => names.Contains(nameOf(item)))];
    }

    private static string DescribeMachine()
    {
        // The runner itself may be pinned, so count the machine's CPUs rather than Environment.ProcessorCount.
        var cpuInfo = File.Exists("/proc/cpuinfo") ? File.ReadAllLines("/proc/cpuinfo") : [];
        var model = cpuInfo.FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim();
        var cores = cpuInfo.Count(l => l.StartsWith("processor", StringComparison.Ordinal));
        return $"{model ?? "unknown CPU"}, {cores} CPUs, {RuntimeInformation.OSDescription}, .NET {Environment.Version}";
    }
}
