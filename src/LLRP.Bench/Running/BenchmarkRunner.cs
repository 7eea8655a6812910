using System.Globalization;
using System.Runtime.InteropServices;
using LLRP.Bench.Certificates;
using LLRP.Bench.Contenders;
using LLRP.Bench.Load;
using LLRP.Bench.Origins;
using LLRP.Bench.Processes;
using LLRP.Bench.Results;

namespace LLRP.Bench.Running;

/// <summary>
/// Runs DESIGN.md's benchmark method: the origins start once (see <see cref="OriginPlan"/>); then, round after round,
/// every contender in turn (A B C A B C …) is started in front of each origin, measured under every shape, with the
/// large bodies and with idle connections, and stopped. When pinned, the contender runs on CPU 0 and the origins,
/// wrk and curl on CPU 1 (bench.sh pins the runner there too, so the idle connections are opened from CPU 1).
/// </summary>
public static class BenchmarkRunner
{
    private const string ProxyCpu = "0";
    private const string LoadCpu = "1";

    /// <summary>Open files a proxy keeps besides two per idle client (one upstream connection per client at worst).</summary>
    private const long OpenFileReserve = 1024;

    /// <summary>Selects what to run from the options; fills and returns the result, even when cancelled midway.</summary>
    /// <exception cref="ArgumentException">An unknown contender or shape name was asked for.</exception>
    /// <exception cref="InvalidOperationException">An origin could not be started.</exception>
    public static async Task<RunResult> RunAsync(BenchOptions options, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(options.ResultsDirectory);
        ChildProcessRegistry.UsePidFile(Path.Combine(options.ResultsDirectory, "children.pids"));
        var portMoves = new List<string>();
        var proxyPort = LoopbackPorts.Claim("every contender (each in turn, --proxy-port)", options.ProxyPort, portMoves);
        var shapes = options.Shapes is null && !options.Quick
            ? [.. LoadShapes.Default]
            : Select(LoadShapes.All, options.Shapes ?? [LoadShapes.Quick.Name], s => s.Name, "shape");
        var contenders = Select(ContenderCatalog.Create(options, proxyPort), options.Only ?? (options.Quick ? ContenderCatalog.QuickNames : null), c => c.Name, "contender");
        var balancing = shapes.Any(s => s.IsBalance);
        if (options.Only is null && !balancing)
        {
            contenders.RemoveAll(c => c.BalancingOnly);
        }

        if (options.Only is null && !shapes.Any(s => s.Tcp))
        {
            contenders.RemoveAll(c => c.TcpOnly);
        }

        var origins = OriginPlan.Create(options, proxyPort, shapes, portMoves);
        var certificate = TlsCertificate.For(options);
        if (shapes.Any(s => s.Legs.AnyTls))
        {
            await certificate.CreateAsync(options, cancellationToken);
        }

        var result = new RunResult
        {
            Options = options,
            Started = DateTime.UtcNow,
            Contenders = contenders,
            Shapes = shapes,
            Topology = options.Pinned
                ? $"contender on 127.0.0.1:{proxyPort} pinned to CPU {ProxyCpu}; origins, wrk, curl, the idle connections and the WebSocket clients pinned to CPU {LoadCpu}"
                : $"contender on 127.0.0.1:{proxyPort}, unpinned",
            Origins = origins,
            Machine = DescribeMachine(),
        };
        foreach (var contender in contenders.Where(c => c.UnavailableReason is not null))
        {
            result.Missing[contender.Name] = contender.UnavailableReason!;
        }

        foreach (var contender in contenders.Where(c => c.BalancingOnly && !balancing))
        {
            result.Missing.TryAdd(contender.Name, $"it runs only the shapes with several origins ({string.Join(", ", LoadShapes.All.Where(s => s.IsBalance).Select(s => s.Name))}), none of which was selected");
        }

        result.Notes.AddRange(portMoves);
        if (origins.FallbackNote is { } fallback)
        {
            result.Notes.Add(fallback);
        }

        using var http = new HttpClient(new SocketsHttpHandler
        {
            PooledConnectionLifetime = TimeSpan.Zero,
            SslOptions = { RemoteCertificateValidationCallback = static (_, _, _, _) => true },
        });
        var context = new RunContext
        {
            Options = options,
            Result = result,
            ProxyPort = proxyPort,
            Origins = origins,
            IdleConnectionCount = IdleConnectionCount(options, result),
            ProxyCpus = options.Pinned ? ProxyCpu : null,
            LoadCpus = options.Pinned ? LoadCpu : null,
            Wrk = new WrkRunner(Path.Combine(options.RepositoryRoot, "scripts", "wrk"), options.Pinned ? LoadCpu : null),
            H2load = new H2loadRunner(Path.Combine(options.ResultsDirectory, "h2load"), options.Pinned ? LoadCpu : null),
            LargeBodies = new LargeBodyRunner(Path.Combine(Path.GetTempPath(), "llrp-bench-upload-1GiB.bin"), options.Pinned ? LoadCpu : null),
            Http = http,
            Certificate = certificate,
        };

        var started = new List<ChildProcess>();
        try
        {
            foreach (var origin in origins.Origins)
            {
                started.Add(await OriginLauncher.StartAsync(origin, context, cancellationToken));
            }

            await RoundRunner.RunAsync(context, cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            result.Interrupted = true;
            result.Notes.Add("the run was interrupted; the figures cover only what finished");
        }
        finally
        {
            foreach (var origin in started)
            {
                await origin.DisposeAsync();
            }
        }

        result.Finished = DateTime.UtcNow;
        return result;
    }

    /// <summary>
    /// The idle connections asked for, lowered so that a proxy holding one upstream connection per idle client stays
    /// within the open-file limit it inherits (a note says so).
    /// </summary>
    private static int IdleConnectionCount(BenchOptions options, RunResult result)
    {
        var requested = options.IdleConnectionCount;
        if (requested == 0 || OpenFileLimit.Hard() is not { } limit || limit >= (2L * requested) + OpenFileReserve)
        {
            return requested;
        }

        var allowed = (int)Math.Max(1, (limit - OpenFileReserve) / 2);
        result.Notes.Add(string.Create(CultureInfo.InvariantCulture,
            $"idle connections: {allowed} instead of {requested}: the open-file limit is {limit} (the hard limit, to which .NET raises its soft one), and a proxy holding one upstream connection per client needs two per idle client plus {OpenFileReserve} of its own"));
        return allowed;
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
