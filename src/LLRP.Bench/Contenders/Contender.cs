namespace LLRP.Bench.Contenders;

/// <summary>One thing put in front of the origin (or nothing, for <see cref="ContenderKind.Direct"/>).</summary>
public sealed record Contender
{
    public required string Name { get; init; }

    public required string Description { get; init; }

    public required ContenderKind Kind { get; init; }

    /// <summary>The program to start; empty for <see cref="ContenderKind.Direct"/>.</summary>
    public string FileName { get; init; } = "";

    public IReadOnlyList<string> Arguments { get; init; } = [];

    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();

    /// <summary>Why it cannot run at all (not built, program not installed), known before starting it.</summary>
    public string? UnavailableReason { get; init; }
}
