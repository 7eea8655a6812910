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

    public List<LargeBodySample> LargeBodySamples { get; } = [];

    public List<IdleSample> IdleSamples { get; } = [];

    /// <summary>Contender name → why it has no results.</summary>
    public Dictionary<string, string> Missing { get; } = [];

    /// <summary>Things a reader must know: a crash mid-run, allocations not measurable, an interruption.</summary>
    public List<string> Notes { get; } = [];

    public bool Interrupted { get; set; }

    public IEnumerable<Contender> Measured => Contenders.Where(c => !Missing.ContainsKey(c.Name));

    /// <summary>The first of <see cref="ContenderCatalog.BaselineCandidates"/> that has results, if any.</summary>
    public string? Baseline => ContenderCatalog.BaselineCandidates.FirstOrDefault(name => Samples.Any(s => s.Contender == name));
}
