namespace LLRP.Bench.Contenders;

/// <summary>One thing put in front of the origin (or nothing, for <see cref="ContenderKind.Direct"/>).</summary>
public sealed record Contender
{
    /// <summary>Stands for the origin's address (<c>127.0.0.1:port</c>) in <see cref="Arguments"/>: one catalog serves every origin.</summary>
    public const string OriginToken = "{origin}";

    public required string Name { get; init; }

    public required string Description { get; init; }

    public required ContenderKind Kind { get; init; }

    /// <summary>The program to start; empty for <see cref="ContenderKind.Direct"/>.</summary>
    public string FileName { get; init; } = "";

    /// <summary>The program's arguments, the origin's address as <see cref="OriginToken"/>.</summary>
    public IReadOnlyList<string> Arguments { get; init; } = [];

    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();

    /// <summary>The arguments for a start in front of the origin on <paramref name="originPort"/>.</summary>
    public IReadOnlyList<string> ArgumentsFor(int originPort)
        => [.. Arguments.Select(argument => argument.Replace(OriginToken, $"127.0.0.1:{originPort}", StringComparison.Ordinal))];

    /// <summary>Why it cannot run at all (not built, program not installed), known before starting it.</summary>
    public string? UnavailableReason { get; init; }
}
