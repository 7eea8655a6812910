using LLRP.Bench.Contenders;
using LLRP.Bench.Processes;
using LLRP.Bench.Results;

namespace LLRP.Bench.Running;

/// <summary>
/// The rounds of a run: in each, every contender in turn is started once per <see cref="SessionWork"/>, in front of that
/// work's origin, and measured: the shapes, then the large bodies (each after the same transfer straight to the origin,
/// <see cref="ContenderSession.TransferAsync"/>); then started again for the idle connections. Each
/// round starts one contender further (A B C, B C A, C A B …, <see cref="InRound"/>), so no contender always runs first
/// or last.
/// </summary>
public static class RoundRunner
{
    private static readonly TimeSpan _startPlan = TimeSpan.FromSeconds(3);
    private static readonly TimeSpan _largeBodyPlan = TimeSpan.FromSeconds(5);
    private static readonly TransferDirection[] _directions = [TransferDirection.Download, TransferDirection.Upload];

    /// <summary>Runs every round; results, notes and missing contenders go to the context's result.</summary>
    public static async Task RunAsync(RunContext context, CancellationToken cancellationToken)
    {
        var options = context.Options;
        var result = context.Result;
        var works = SessionWork.Plan(context.Origins, result.Shapes, options.LargeBodies, context.IdleConnectionCount > 0);
        var shapePlan = TimeSpan.FromSeconds(options.WarmupSeconds + options.DurationSeconds + 1);
        var idlePlan = TimeSpan.FromSeconds(3 + (context.IdleConnectionCount / 2000.0));
        var perRound = result.Measured.Sum(contender => works.Where(w => w.IsFor(contender)).Sum(w => (_startPlan
            + (shapePlan * w.Shapes.Count)
            + (w.LargeBodies ? _largeBodyPlan * (contender.Kind == ContenderKind.Direct ? 2 : 4) : TimeSpan.Zero)
            + (w.IdleConnections ? _startPlan + idlePlan : TimeSpan.Zero)).Ticks));
        var progress = new ProgressReporter(TimeSpan.FromTicks(perRound) * options.Rounds);
        var failures = new List<(Contender Contender, int Round, SessionWork Work, string Error)>();
        RecordSingleOrigin(result, works);
        if (!SyscallProbe.IsAvailable)
        {
            result.Notes.Add("system calls not counted: strace is not installed (apt-get install strace)");
        }

        try
        {
            for (var round = 1; round <= options.Rounds; round++)
            {
                foreach (var contender in InRound(result.Measured.ToList(), round))
                {
                    foreach (var work in works.Where(w => w.IsFor(contender)))
                    {
                        var where = $"round {round}/{options.Rounds} · {contender.Name}" + (works.Count == 1 ? "" : $" ({work.Description})");
                        if (work.Shapes.Count > 0 || work.LargeBodies)
                        {
                            progress.Report($"{where}: starting", _startPlan);
                            var (session, error) = await ContenderSession.StartAsync(contender, context, work, round, cancellationToken);
                            if (session is null)
                            {
                                Console.Error.WriteLine($"  {contender.Name} ({work.Description}): did not start ({error})");
                                failures.Add((contender, round, work, error!));
                                continue;
                            }

                            await using (session)
                            {
                                await RunSessionAsync(context, session, work, contender, round, where, progress, shapePlan, cancellationToken);
                            }
                        }

                        if (work.IdleConnections && contender.Kind != ContenderKind.Direct)
                        {
                            await MeasureIdleAsync(context, work, contender, round, where, progress, idlePlan, cancellationToken);
                        }
                    }
                }
            }
        }
        finally
        {
            RecordFailures(result, failures);
        }
    }

    /// <summary>The contenders in round <paramref name="round"/>'s order (1-based): the list turned by one place per round.</summary>
    public static IReadOnlyList<T> InRound<T>(IReadOnlyList<T> contenders, int round)
    {
        if (contenders.Count == 0)
        {
            return contenders;
        }

        var first = (round - 1) % contenders.Count;
        return [.. contenders.Skip(first), .. contenders.Take(first)];
    }

    private static async Task RunSessionAsync(
        RunContext context, ContenderSession session, SessionWork work, Contender contender, int round, string where,
        ProgressReporter progress, TimeSpan shapePlan, CancellationToken cancellationToken)
    {
        var result = context.Result;
        bool Stopped(string during)
        {
            if (session.ExitDescription is { } exit)
            {
                result.Notes.Add($"round {round}, {contender.Name} stopped during {during}: {exit}");
                return true;
            }

            return false;
        }

        var probed = false;
        foreach (var shape in work.Shapes)
        {
            progress.Report($"{where} · {shape.Title}", shapePlan);
            if (shape.IsWebSocket)
            {
                result.WebSocketSamples.Add(await session.MeasureWebSocketAsync(shape, cancellationToken));
            }
            else if (await session.MeasureAsync(shape, cancellationToken) is { } sample)
            {
                result.Samples.Add(sample);
                if (SyscallProbe.IsAvailable && !probed && ContenderSession.IsSyscallProbeShape(shape))
                {
                    probed = true;
                    progress.Report($"{where} · system calls ({shape.Title}, strace)", SyscallProbe.Window + TimeSpan.FromSeconds(3));
                    if (await session.ProbeSyscallsAsync(shape, cancellationToken) is { } syscalls)
                    {
                        result.SyscallSamples.Add(syscalls);
                    }
                }
            }

            if (Stopped(shape.Name))
            {
                return;
            }
        }

        foreach (var direction in work.LargeBodies ? _directions : [])
        {
            var paired = session.PairsDirect;
            progress.Report(
                $"{where} · 1 GiB {direction.ToString().ToLowerInvariant()}{(paired ? ", straight to the origin first" : "")}",
                paired ? _largeBodyPlan * 2 : _largeBodyPlan);
            result.LargeBodySamples.Add(await session.TransferAsync(direction, cancellationToken));
            if (Stopped($"the 1 GiB {direction.ToString().ToLowerInvariant()}"))
            {
                return;
            }
        }
    }

    /// <summary>
    /// The idle connections, in a process of the contender started for them: what the shapes left behind (a heap grown and
    /// not yet given back, a pool's blocks) would otherwise take the first connections in, and the figure would say more
    /// about what ran before than about what a connection holds.
    /// </summary>
    private static async Task MeasureIdleAsync(
        RunContext context, SessionWork work, Contender contender, int round, string where, ProgressReporter progress, TimeSpan idlePlan,
        CancellationToken cancellationToken)
    {
        progress.Report($"{where} · {context.IdleConnectionCount} idle connections (started again)", _startPlan + idlePlan);
        var (session, error) = await ContenderSession.StartAsync(contender, context, work, round, cancellationToken);
        if (session is null)
        {
            context.Result.Notes.Add($"round {round}, {contender.Name} did not start again for the idle connections: {error}");
            return;
        }

        await using (session)
        {
            if (await session.MeasureIdleAsync(context.IdleConnectionCount, cancellationToken) is { } sample)
            {
                context.Result.IdleSamples.Add(sample);
            }

            if (session.ExitDescription is { } exit)
            {
                context.Result.Notes.Add($"round {round}, {contender.Name} stopped during the idle connections: {exit}");
            }
        }
    }

    /// <summary>A contender that takes one origin has no figure for the shapes with several, and each such shape says why.</summary>
    private static void RecordSingleOrigin(RunResult result, List<SessionWork> works)
    {
        foreach (var work in works.Where(w => w.OriginPorts.Count > 1))
        {
            foreach (var contender in result.Measured.Where(c => !c.TakesSeveralOrigins))
            {
                foreach (var shape in work.Shapes)
                {
                    result.NotMeasured.TryAdd((contender.Name, shape.Name), "it takes a single origin");
                }
            }
        }
    }

    /// <summary>
    /// A contender that never started has no results and is missing, with its first error; one that started for some
    /// work but not for other (LLRP refusing https:// urls, say) has a note per failed start, and each shape of that work
    /// says why it has no figure.
    /// </summary>
    private static void RecordFailures(RunResult result, List<(Contender Contender, int Round, SessionWork Work, string Error)> failures)
    {
        foreach (var (contender, round, work, error) in failures)
        {
            if (!result.HasResults(contender.Name))
            {
                result.Missing.TryAdd(contender.Name, $"did not start ({work.Description}): {error}");
                continue;
            }

            result.Notes.Add($"round {round}, {contender.Name} did not start ({work.Description}): {error}");
            foreach (var shape in work.Shapes)
            {
                result.NotMeasured.TryAdd((contender.Name, shape.Name), $"did not start: {error}");
            }
        }
    }
}
