using LLRP.Bench.Load;

namespace LLRP.Bench.Contenders;

/// <summary>One thing put in front of the origin (or nothing, for <see cref="ContenderKind.Direct"/>).</summary>
public sealed record Contender
{
    /// <summary>Stands for the origins in <see cref="Arguments"/>: each as <see cref="OriginTemplate"/>, joined by <see cref="OriginSeparator"/>.</summary>
    public const string OriginsToken = "{origins}";

    /// <summary>Stands for one origin's address (<c>127.0.0.1:port</c>) in <see cref="OriginTemplate"/>: one catalog serves every origin.</summary>
    public const string OriginToken = "{origin}";

    /// <summary>Stands for the client leg's scheme (<c>http</c> or <c>https</c>) in <see cref="Arguments"/>.</summary>
    public const string SchemeToken = "{scheme}";

    /// <summary>Stands for the origin leg's scheme in <see cref="Arguments"/> and <see cref="OriginTemplate"/>.</summary>
    public const string OriginSchemeToken = "{originScheme}";

    public required string Name { get; init; }

    public required string Description { get; init; }

    public required ContenderKind Kind { get; init; }

    /// <summary>The program to start; empty for <see cref="ContenderKind.Direct"/>.</summary>
    public string FileName { get; init; } = "";

    /// <summary>The program's arguments, with <see cref="OriginsToken"/>, <see cref="SchemeToken"/> and <see cref="OriginSchemeToken"/>.</summary>
    public IReadOnlyList<string> Arguments { get; init; } = [];

    /// <summary>One origin as the program takes it, e.g. <c>{originScheme}://{origin}</c>.</summary>
    public string OriginTemplate { get; init; } = OriginToken;

    /// <summary>Between two origins in <see cref="OriginsToken"/>'s place.</summary>
    public string OriginSeparator { get; init; } = ",";

    /// <summary>How it balances over several origins (e.g. <c>leastconn</c>); null when it takes only one.</summary>
    public string? Balancing { get; init; }

    /// <summary>True when it differs from another contender only in <see cref="Balancing"/>: it runs only the shapes with several origins.</summary>
    public bool BalancingOnly { get; init; }

    /// <summary>Added when the client leg is TLS: where the certificate is.</summary>
    public IReadOnlyList<string> ClientTlsArguments { get; init; } = [];

    /// <summary>Added when the origin leg is TLS: accept the origin's self-signed certificate.</summary>
    public IReadOnlyList<string> OriginTlsArguments { get; init; } = [];

    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();

    /// <summary>True when it can run in front of several origins at once.</summary>
    public bool TakesSeveralOrigins => Balancing is not null;

    /// <summary>The arguments for a start in front of the origins on <paramref name="originPorts"/>, over <paramref name="legs"/>.</summary>
    public IReadOnlyList<string> ArgumentsFor(IReadOnlyList<int> originPorts, Legs legs)
    {
        var origins = string.Join(OriginSeparator, originPorts.Select(port => OriginTemplate.Replace(OriginToken, $"127.0.0.1:{port}", StringComparison.Ordinal)));
        var arguments = legs.OriginHttp2 ? OriginHttp2Arguments ?? throw new InvalidOperationException($"{Name} does not speak HTTP/2 to an origin") : Arguments;
        return [.. arguments
            .Concat(legs.ClientTls ? ClientTlsArguments : [])
            .Concat(legs.OriginTls ? OriginTlsArguments : [])
            .Concat(legs.ClientHttp2 ? ClientHttp2Arguments ?? [] : [])
            .Select(argument => argument
                .Replace(OriginsToken, origins, StringComparison.Ordinal)
                .Replace(SchemeToken, legs.ClientScheme, StringComparison.Ordinal)
                .Replace(OriginSchemeToken, legs.OriginScheme, StringComparison.Ordinal))];
    }

    /// <summary>
    /// Its extra arguments when the client speaks h2c (<see cref="Legs.ClientHttp2"/>); null when it does not run the
    /// HTTP/2 shapes.
    /// </summary>
    public IReadOnlyList<string>? ClientHttp2Arguments { get; init; }

    /// <summary>
    /// Its arguments, in place of <see cref="Arguments"/>, when it speaks HTTP/2 with prior knowledge (h2c) to the origin
    /// (<see cref="Legs.OriginHttp2"/>); null when it does not run the shapes with HTTP/2 to the origin.
    /// </summary>
    public IReadOnlyList<string>? OriginHttp2Arguments { get; init; }

    /// <summary>True when it differs from another contender only towards HTTP/2 origins: it runs only the shapes with HTTP/2 to the origin.</summary>
    public bool OriginHttp2Only { get; init; }

    /// <summary>True for a TCP relay (L4): it runs the TCP shapes (<see cref="LoadShape.Tcp"/>) and nothing else.</summary>
    public bool TcpOnly { get; init; }

    /// <summary>Why it cannot run at all (not built, program not installed), known before starting it.</summary>
    public string? UnavailableReason { get; init; }
}
