using System.Globalization;
using System.Text.RegularExpressions;
using LLRP.Bench.Contenders;
using LLRP.Bench.Load;
using LLRP.Bench.Origins;
using LLRP.Bench.Processes;
using LLRP.Bench.Results;

namespace LLRP.Bench.Running;

/// <summary>
/// A contender started for one round in front of one origin (nothing is started for direct): it is measured under
/// the shapes, with the large bodies and with idle connections, as the round's <see cref="SessionWork"/> says, then
/// stopped. Proxy CPU and peak RSS cover exactly each measurement window.
/// </summary>
public sealed partial class ContenderSession : IAsyncDisposable
{
    /// <summary>The idle connections are opened in this many equal steps, RSS read after each.</summary>
    public const int IdleSteps = 4;

    /// <summary>How long RSS settles before it is read, before the first idle connection and after each step.</summary>
    public static readonly TimeSpan IdleSettle = TimeSpan.FromSeconds(1);

    private readonly Contender _contender;
    private readonly RunContext _context;
    private readonly ChildProcess? _process;
    private readonly SessionWork _work;
    private readonly int _round;
    private bool _allocationNoteWritten;

    private ContenderSession(Contender contender, RunContext context, ChildProcess? process, SessionWork work, int round)
    {
        _contender = contender;
        _context = context;
        _process = process;
        _work = work;
        _round = round;
    }

    /// <summary>The port the load generator targets: the proxy's, or the origin's for direct.</summary>
    public int Port => _process is not null ? _context.ProxyPort
        : _work.DirectPort ?? throw new InvalidOperationException("direct is started only in front of one origin");

    /// <summary>Null while it runs; otherwise how it ended.</summary>
    public string? ExitDescription => _process is { HasExited: true } process
        ? $"exited with code {process.ExitCode}: {process.ExitReason}"
        : null;

    /// <summary>Starts the contender and waits until it answers; the session, or why it could not start.</summary>
    /// <param name="contender">The contender.</param>
    /// <param name="context">The run.</param>
    /// <param name="work">The origin the contender forwards to (and direct's target) and the schemes of both legs.</param>
    /// <param name="round">The round, for notes and file names.</param>
    /// <param name="cancellationToken">Stops waiting.</param>
    public static async Task<(ContenderSession? Session, string? Error)> StartAsync(
        Contender contender, RunContext context, SessionWork work, int round, CancellationToken cancellationToken)
    {
        if (contender.Kind == ContenderKind.Direct)
        {
            return (new ContenderSession(contender, context, null, work, round), null);
        }

        if (!await LoopbackPorts.WaitUntilFreeAsync(context.ProxyPort, TimeSpan.FromSeconds(10)))
        {
            return (null, $"port {context.ProxyPort} is still in use");
        }

        var logPath = Path.Combine(context.LogDirectory, $"{contender.Name}.log");

        // A .NET contender's host watches its content root, the working directory, with every directory below it: started
        // in the runner's, it would handle each line h2load logs under the results directory. Each gets an empty one.
        var process = ChildProcess.Start(
            contender.FileName,
            contender.ArgumentsFor(work.OriginPorts, work.Legs),
            contender.Environment,
            context.ProxyCpus,
            logPath,
            contender.Kind == ContenderKind.DotNet ? Path.Combine(context.Options.ResultsDirectory, "cwd", contender.Name) : null);
        var error = await Readiness.WaitAsync(context.Http, work.Legs.ClientScheme, context.ProxyPort, process, TimeSpan.FromSeconds(30), cancellationToken, work.Legs.ClientHttp2);
        if (error is not null)
        {
            await process.DisposeAsync();
            return (null, error);
        }

        if (contender.Kind == ContenderKind.DotNet && TransportLine().Matches(await File.ReadAllTextAsync(logPath, cancellationToken)) is { Count: > 0 } transports)
        {
            context.Result.Transports[contender.Name] = transports[^1].Groups[1].Value;
        }

        return (new ContenderSession(contender, context, process, work, round), null);
    }

    /// <summary>
    /// Warms up, then measures one shape with wrk, h2load for an HTTP/2 shape, or <see cref="GrpcUnaryLoad"/> for a gRPC one; null (with a note) when it produced no result. For a balancing shape, also how
    /// many requests each of <see cref="Origins.OriginPlan.Balance"/> received during the window. A gRPC shape driven by
    /// h2load (<see cref="LoadShape.GrpcByH2load"/>) starts with one <see cref="GrpcUnaryCheck"/> call and ends with
    /// <see cref="GrpcUnaryAudit"/>; a contender that fails either has no result for the round, which says why.
    /// </summary>
    public async Task<ShapeSample?> MeasureAsync(LoadShape shape, CancellationToken cancellationToken)
    {
        var options = _context.Options;
        Func<int, LoadShape, int, CancellationToken, Task<(WrkResult? Result, string Output)>> load = shape.Grpc && !shape.GrpcByH2load ? GrpcUnaryLoad.RunAsync
            : shape.IsHttp2 ? _context.H2load.RunAsync
            : _context.Wrk.RunAsync;
        if (shape.GrpcByH2load && await GrpcUnaryCheck.RunAsync(Port, cancellationToken) is { } checkError)
        {
            return NoResult(shape, $"failed the gRPC check: {checkError}");
        }

        if (options.WarmupSeconds > 0)
        {
            await load(Port, shape, options.WarmupSeconds, cancellationToken);
        }

        var unaryOkBefore = shape.GrpcByH2load ? await ReadUnaryOkAsync(cancellationToken) : null;
        var countsBefore = shape.IsBalance ? await ReadOriginCountsAsync(shape, cancellationToken) : null;
        var allocations = StartAllocationMonitor();
        var before = BeginWindow();
        var timestamp = DateTime.UtcNow;
        var (result, output) = await load(Port, shape, options.DurationSeconds, cancellationToken);
        var (cpu, peak) = EndWindow(before);
        var allocationRate = allocations is null ? null : await allocations.StopAsync();
        var countsAfter = countsBefore is null ? null : await ReadOriginCountsAsync(shape, cancellationToken);

        var outputDirectory = Path.Combine(options.ResultsDirectory, "wrk");
        Directory.CreateDirectory(outputDirectory);
        await File.WriteAllTextAsync(Path.Combine(outputDirectory, $"r{_round}-{_contender.Name}-{shape.Name}.txt"), output, cancellationToken);
        if (result is null || result.Requests == 0)
        {
            return NoResult(shape, $"wrk completed no request (see wrk/r{_round}-{_contender.Name}-{shape.Name}.txt)");
        }

        if (shape.GrpcByH2load)
        {
            var unaryOkAfter = await ReadUnaryOkAsync(cancellationToken);
            var disagreement = unaryOkBefore is null || unaryOkAfter is null
                ? "the origin's count of calls answered OK could not be read"
                : GrpcUnaryAudit.Compare(unaryOkAfter.Value - unaryOkBefore.Value, H2loadOutputParser.Count2xx(output), shape);
            if (disagreement is not null)
            {
                return NoResult(shape, $"failed the gRPC check: {disagreement} (see wrk/r{_round}-{_contender.Name}-{shape.Name}.txt)");
            }
        }

        return new ShapeSample(
            _contender.Name,
            shape,
            _round,
            timestamp,
            result,
            cpu is null ? null : cpu.Value.TotalMicroseconds / result.Requests,
            peak,
            allocationRate / result.RequestsPerSecond,
            countsBefore is null || countsAfter is null ? null : [.. countsAfter.Zip(countsBefore, (after, before) => after - before - 1)]);
    }

    /// <summary>True for the shape after whose window the system calls are counted: GET 10 B over http/1.1 (any connection count).</summary>
    public static bool IsSyscallProbeShape(LoadShape shape) => shape.Name.StartsWith("get-10b-c", StringComparison.Ordinal);

    /// <summary>
    /// After a shape's window, counts the contender's system calls (<see cref="SyscallProbe"/>) while the same load runs
    /// again: strace is attached a second after wrk starts (its connections open), for <see cref="SyscallProbe.Window"/>;
    /// requests are counted by the origin. Null for direct, or (with a note) when strace produced no count.
    /// </summary>
    public async Task<SyscallSample?> ProbeSyscallsAsync(LoadShape shape, CancellationToken cancellationToken)
    {
        if (_process is null)
        {
            return null;
        }

        var file = $"r{_round}-{_contender.Name}-{shape.Name}.txt";
        var directory = Path.Combine(_context.Options.ResultsDirectory, "strace");
        var origin = _context.Origins.Origins.First(o => o.Port == _work.OriginPorts[0]);
        var timestamp = DateTime.UtcNow;
        var load = _context.Wrk.RunAsync(Port, shape, (int)SyscallProbe.Window.TotalSeconds + 3, cancellationToken);
        await Task.Delay(TimeSpan.FromSeconds(1), cancellationToken);
        (SyscallSummary? Summary, long Requests, string? Error) probe;
        try
        {
            probe = await SyscallProbe.RunAsync(
                ProcessGroupStats.Pids(_process.Id),
                Path.Combine(directory, file),
                _context.LoadCpus,
                () => OriginRequestCounter.ReadAsync(_context.Http, origin, cancellationToken),
                cancellationToken);
        }
        catch (Exception e) when (e is HttpRequestException or FormatException)
        {
            probe = (null, 0, $"the {origin.Label} origin's request count could not be read: {e.Message}");
        }

        var (summary, requests, error) = probe;
        var (_, output) = await load;
        await File.WriteAllTextAsync(Path.Combine(directory, "wrk-" + file), output, cancellationToken);
        if (summary is null || requests <= 0)
        {
            _context.Result.Notes.Add($"round {_round}, {_contender.Name}: system calls not counted ({error ?? $"no request reached the origin, see strace/wrk-{file}"})");
            return null;
        }

        return new SyscallSample(_contender.Name, shape.Name, _round, timestamp, requests, summary);
    }

    /// <summary>
    /// Warms up (on connections of its own), then measures the WebSocket echo; a sample even when no message came back, so
    /// a contender that cannot tunnel shows its errors.
    /// </summary>
    public async Task<WebSocketSample> MeasureWebSocketAsync(LoadShape shape, CancellationToken cancellationToken)
    {
        var options = _context.Options;
        if (options.WarmupSeconds > 0)
        {
            await WebSocketEchoLoad.RunAsync(Port, shape, options.WarmupSeconds, cancellationToken);
        }

        var allocations = StartAllocationMonitor();
        var before = BeginWindow();
        var timestamp = DateTime.UtcNow;
        var result = await WebSocketEchoLoad.RunAsync(Port, shape, options.DurationSeconds, cancellationToken);
        var (cpu, peak) = EndWindow(before);
        var allocationRate = allocations is null ? null : await allocations.StopAsync();
        return new WebSocketSample(
            _contender.Name,
            shape,
            _round,
            timestamp,
            result,
            cpu is null || result.Messages == 0 ? null : cpu.Value.TotalMicroseconds / result.Messages,
            peak,
            result.Messages == 0 ? null : allocationRate / result.MessagesPerSecond);
    }

    /// <summary>A contender in front of one origin: each 1 GiB transfer through it follows the same one straight to that origin.</summary>
    public bool PairsDirect => _process is not null && _work.DirectPort is not null;

    /// <summary>
    /// Moves 1 GiB one way through the contender; a contender in front of one origin moves it straight to that origin just
    /// before, for the pair's ratio. The host's speed moved by more between a round's direct transfer and a contender's,
    /// minutes apart, than the relays differed (docs/benchmarks.md, "TCP 1 GiB upload: copied once long").
    /// </summary>
    public async Task<LargeBodySample> TransferAsync(TransferDirection direction, CancellationToken cancellationToken)
    {
        double? pairedDirect = null;
        if (PairsDirect)
        {
            var (directBytes, directSeconds, directError) = await _context.LargeBodies.RunAsync(_work.DirectPort!.Value, direction, cancellationToken);
            pairedDirect = directError is null && directSeconds > 0 ? LargeBodySample.MegabytesPerSecondOf(directBytes, directSeconds) : null;
        }

        var before = BeginWindow();
        var timestamp = DateTime.UtcNow;
        var (bytes, seconds, error) = await _context.LargeBodies.RunAsync(Port, direction, cancellationToken);
        var (cpu, peak) = EndWindow(before);
        return new LargeBodySample(_contender.Name, direction, _round, timestamp, bytes, seconds, error, peak, cpu?.TotalSeconds, pairedDirect);
    }

    /// <summary>
    /// Opens <paramref name="count"/> keep-alive connections, one GET each, in <see cref="IdleSteps"/> equal steps, and
    /// leaves them idle: the contender's RSS before the first and after each step (each after a settling second), and
    /// its upstream connections at the end. Null for direct.
    /// </summary>
    public async Task<IdleSample?> MeasureIdleAsync(int count, CancellationToken cancellationToken)
    {
        if (_process is null)
        {
            return null;
        }

        await Task.Delay(IdleSettle, cancellationToken);
        var timestamp = DateTime.UtcNow;
        List<IdleStep> steps = [new(0, ProcessGroupStats.ResidentBytes(_process.Id))];
        using var connections = new IdleConnectionSet(_context.ProxyPort);
        var requested = 0;
        for (var step = 1; step <= IdleSteps; step++)
        {
            var more = (int)((long)count * step / IdleSteps) - requested;
            requested += more;
            await connections.OpenAsync(more, TimeSpan.FromSeconds(30) + TimeSpan.FromMilliseconds(5) * more, cancellationToken);
            await Task.Delay(IdleSettle, cancellationToken);
            steps.Add(new(connections.Count, ProcessGroupStats.ResidentBytes(_process.Id)));
        }

        var pids = ProcessGroupStats.Pids(_process.Id);
        var upstream = _work.OriginPorts.Sum(port => TcpConnectionTable.CountEstablished(pids, port));
        return new IdleSample(_contender.Name, _round, timestamp, count, steps, upstream, connections.Error);
    }

    public async ValueTask DisposeAsync()
    {
        if (_process is not null)
        {
            await _process.DisposeAsync();
            await LoopbackPorts.WaitUntilFreeAsync(_context.ProxyPort, TimeSpan.FromSeconds(10));
        }
    }

    /// <summary>No sample for <paramref name="shape"/> in this round: a note, and the reason the report gives.</summary>
    private ShapeSample? NoResult(LoadShape shape, string reason)
    {
        _context.Result.Notes.Add($"round {_round}, {_contender.Name}, {shape.Name}: {reason}");
        _context.Result.NotMeasured.TryAdd((_contender.Name, shape.Name), reason);
        return null;
    }

    /// <summary>The gRPC unary calls the session's origin has answered with status OK; null when it cannot be read.</summary>
    private async Task<long?> ReadUnaryOkAsync(CancellationToken cancellationToken)
    {
        var origin = _context.Origins.Origins.First(o => o.Port == _work.OriginPorts[0]);
        try
        {
            return await OriginRequestCounter.ReadUnaryOkAsync(_context.Http, origin, cancellationToken);
        }
        catch (Exception e) when (e is HttpRequestException or FormatException)
        {
            _context.Result.Notes.Add($"round {_round}, {_contender.Name}: the {origin.Label} origin's count of gRPC calls answered OK could not be read ({e.Message})");
            return null;
        }
    }

    /// <summary>The request counts of the balancing origins, in order; null (with a note) when one cannot be read.</summary>
    private async Task<long[]?> ReadOriginCountsAsync(LoadShape shape, CancellationToken cancellationToken)
    {
        var counts = new long[_context.Origins.Balance.Count];
        for (var i = 0; i < counts.Length; i++)
        {
            var origin = _context.Origins.Balance[i];
            try
            {
                counts[i] = await OriginRequestCounter.ReadAsync(_context.Http, origin, cancellationToken);
            }
            catch (Exception e) when (e is HttpRequestException or FormatException)
            {
                _context.Result.Notes.Add($"round {_round}, {_contender.Name}, {shape.Name}: the {origin.Label} origin's request count could not be read ({e.Message})");
                return null;
            }
        }

        return counts;
    }

    /// <summary>The transport line of LLRP's startup report, e.g. <c>transport=epoll</c>.</summary>
    [GeneratedRegex(@"\btransport=(\w+)")]
    private static partial Regex TransportLine();

    private TimeSpan? BeginWindow()
    {
        if (_process is null)
        {
            return null;
        }

        ProcessGroupStats.ResetPeakResident(_process.Id);
        return ProcessGroupStats.CpuTime(_process.Id);
    }

    private (TimeSpan? Cpu, long? PeakResidentBytes) EndWindow(TimeSpan? cpuBefore)
        => _process is null || cpuBefore is null
            ? (null, null)
            : (ProcessGroupStats.CpuTime(_process.Id) - cpuBefore.Value, ProcessGroupStats.PeakResidentBytes(_process.Id));

    private AllocationMonitor? StartAllocationMonitor()
    {
        if (_process is null || _contender.Kind != ContenderKind.DotNet)
        {
            return null;
        }

        var monitor = AllocationMonitor.TryStart(_process.Id, out var error);
        if (monitor is null && !_allocationNoteWritten)
        {
            _allocationNoteWritten = true;
            _context.Result.Notes.Add(string.Create(CultureInfo.InvariantCulture, $"round {_round}, {_contender.Name}: allocations not measured ({error})"));
        }

        return monitor;
    }
}
