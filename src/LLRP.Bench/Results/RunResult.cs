using LLRP.Bench.Contenders;
using LLRP.Bench.Load;
using LLRP.Bench.Origins;

namespace LLRP.Bench.Results;

/// <summary>Everything one run measured, and what it could not.</summary>
public sealed class RunResult
{
    public required BenchOptions Options { get; init; }

    public required DateTime Started { get; init; }

    public DateTime Finished { get; set; }

    /// <summary>The contenders selected, in interleaving order (missing ones included).</summary>
    public required IReadOnlyList<Contender> Contenders { get; init; }

    public required IReadOnlyList<LoadShape> Shapes { get; init; }

    /// <summary>Where the proxies listened and which CPUs ran what (ports may move off 8080/8081 when taken).</summary>
    public required string Topology { get; init; }

    /// <summary>Which origin served the shapes and which the large bodies.</summary>
    public required OriginPlan Origins { get; init; }

    /// <summary>CPU model, core count, OS: the context the figures hold in.</summary>
    public required string Machine { get; init; }

    public List<ShapeSample> Samples { get; } = [];

    public List<WebSocketSample> WebSocketSamples { get; } = [];

    public List<LargeBodySample> LargeBodySamples { get; } = [];

    public List<IdleSample> IdleSamples { get; } = [];

    public List<SyscallSample> SyscallSamples { get; } = [];

    /// <summary>LLRP contender name → the transport its startup report names (<c>transport=sockets|epoll</c>).</summary>
    public Dictionary<string, string> Transports { get; } = [];

    /// <summary>Contender name → why it has no results.</summary>
    public Dictionary<string, string> Missing { get; } = [];

    /// <summary>(contender, shape name) → why that contender has no result for that shape (it did not start for it, say), while it has others.</summary>
    public Dictionary<(string Contender, string Shape), string> NotMeasured { get; } = [];

    /// <summary>Things a reader must know: a crash mid-run, allocations not measurable, an interruption.</summary>
    public List<string> Notes { get; } = [];

    public bool Interrupted { get; set; }

    public IEnumerable<Contender> Measured => Contenders.Where(c => !Missing.ContainsKey(c.Name));

    /// <summary>True when the contender has any figure: a shape, the WebSocket echo, a large body or idle connections.</summary>
    public bool HasResults(string contender)
        => Samples.Any(s => s.Contender == contender)
            || WebSocketSamples.Any(s => s.Contender == contender)
            || LargeBodySamples.Any(s => s.Contender == contender)
            || IdleSamples.Any(s => s.Contender == contender);

    /// <summary>The first of <see cref="ContenderCatalog.BaselineCandidates"/> that has results, if any.</summary>
    public string? Baseline => ContenderCatalog.BaselineCandidates.FirstOrDefault(name => Samples.Any(s => s.Contender == name));
}
