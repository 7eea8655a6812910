using LLRP.Bench.Load;

namespace LLRP.Bench.Contenders;

/// <summary>One thing put in front of the origin (or nothing, for <see cref="ContenderKind.Direct"/>).</summary>
public sealed record Contender
{
    /// <summary>Stands for the origin's address (<c>127.0.0.1:port</c>) in <see cref="Arguments"/>: one catalog serves every origin.</summary>
    public const string OriginToken = "{origin}";

    /// <summary>Stands for the client leg's scheme (<c>http</c> or <c>https</c>) in <see cref="Arguments"/>.</summary>
    public const string SchemeToken = "{scheme}";

    /// <summary>Stands for the origin leg's scheme in <see cref="Arguments"/>.</summary>
    public const string OriginSchemeToken = "{originScheme}";

    public required string Name { get; init; }

    public required string Description { get; init; }

    public required ContenderKind Kind { get; init; }

    /// <summary>The program to start; empty for <see cref="ContenderKind.Direct"/>.</summary>
    public string FileName { get; init; } = "";

    /// <summary>The program's arguments, with <see cref="OriginToken"/>, <see cref="SchemeToken"/> and <see cref="OriginSchemeToken"/>.</summary>
    public IReadOnlyList<string> Arguments { get; init; } = [];

    /// <summary>Added when the client leg is TLS: where the certificate is.</summary>
    public IReadOnlyList<string> ClientTlsArguments { get; init; } = [];

    /// <summary>Added when the origin leg is TLS: accept the origin's self-signed certificate.</summary>
    public IReadOnlyList<string> OriginTlsArguments { get; init; } = [];

    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();

    /// <summary>The arguments for a start in front of the origin on <paramref name="originPort"/>, over <paramref name="legs"/>.</summary>
    public IReadOnlyList<string> ArgumentsFor(int originPort, Legs legs)
        => [.. Arguments
            .Concat(legs.ClientTls ? ClientTlsArguments : [])
            .Concat(legs.OriginTls ? OriginTlsArguments : [])
            .Select(argument => argument
                .Replace(OriginToken, $"127.0.0.1:{originPort}", StringComparison.Ordinal)
                .Replace(SchemeToken, legs.ClientScheme, StringComparison.Ordinal)
                .Replace(OriginSchemeToken, legs.OriginScheme, StringComparison.Ordinal))];

    /// <summary>Why it cannot run at all (not built, program not installed), known before starting it.</summary>
    public string? UnavailableReason { get; init; }
}
