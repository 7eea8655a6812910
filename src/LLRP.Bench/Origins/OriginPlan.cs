using LLRP.Bench.Processes;

namespace LLRP.Bench.Origins;

/// <summary>
/// Which origin serves what, and where. The shapes go to <see cref="ShapesOrigin"/>. The 1 GiB bodies always go to the
/// bundled origin: its /sink counts and hashes the upload, while nginx's <c>return</c> answers before a large upload has
/// arrived, which a proxy must treat as an early response. With nginx for the shapes and large bodies on, two origins
/// run on two ports and every contender is started once per origin per round.
/// </summary>
public sealed record OriginPlan
{
    public required OriginKind ShapesOrigin { get; init; }

    public required int ShapesPort { get; init; }

    /// <summary>The bundled origin's port for the 1 GiB bodies; null when they are not run.</summary>
    public required int? LargeBodyPort { get; init; }

    /// <summary>Why the shapes do not use the nginx origin although it was not ruled out by the options; null otherwise.</summary>
    public string? FallbackNote { get; init; }

    /// <summary>True when the large bodies have an origin of their own, so each contender is started twice per round.</summary>
    public bool HasSeparateLargeBodyOrigin => LargeBodyPort is { } port && port != ShapesPort;

    /// <summary>Every origin to start, each once.</summary>
    public IEnumerable<(OriginKind Kind, int Port)> Origins => HasSeparateLargeBodyOrigin
        ? [(ShapesOrigin, ShapesPort), (OriginKind.Bundled, LargeBodyPort!.Value)]
        : [(ShapesOrigin, ShapesPort)];

    /// <summary>Picks the shapes' origin (nginx when asked for, or by default when installed) and free ports.</summary>
    /// <exception cref="InvalidOperationException">nginx was asked for and is not installed.</exception>
    public static OriginPlan Create(BenchOptions options, int proxyPort)
    {
        var nginxInstalled = ExecutableSearch.IsOnPath("nginx");
        if (options.Origin == OriginKind.Nginx && !nginxInstalled)
        {
            throw new InvalidOperationException("--origin nginx: nginx is not installed (apt-get install nginx)");
        }

        var kind = options.Origin ?? (nginxInstalled ? OriginKind.Nginx : OriginKind.Bundled);
        var shapesPort = LoopbackPorts.FirstFree(options.OriginPort, proxyPort);
        int? largeBodyPort = !options.LargeBodies ? null
            : kind == OriginKind.Bundled ? shapesPort
            : LoopbackPorts.FirstFree(shapesPort + 1, proxyPort);
        return new OriginPlan
        {
            ShapesOrigin = kind,
            ShapesPort = shapesPort,
            LargeBodyPort = largeBodyPort,
            FallbackNote = options.Origin is null && !nginxInstalled
                ? "nginx is not installed, so the bundled Kestrel origin served the shapes: it tops out near 31k requests/s on one core here and may be the ceiling of the fastest contenders (apt-get install nginx)"
                : null,
        };
    }

    /// <summary>One line for the report: which origin served what, on which port.</summary>
    public string Describe()
    {
        var shapes = ShapesOrigin == OriginKind.Nginx
            ? $"the shapes: nginx, 1 worker, fixed files (scripts/nginx-origin.sh) on 127.0.0.1:{ShapesPort}"
            : $"the shapes: the bundled Kestrel origin (src/LLRP.Downstream) on 127.0.0.1:{ShapesPort}";
        return LargeBodyPort switch
        {
            null => shapes,
            var port when port == ShapesPort => shapes + "; the 1 GiB bodies: the same origin",
            var port => shapes + $"; the 1 GiB bodies: the bundled Kestrel origin (its /sink counts the upload) on 127.0.0.1:{port}; "
                + "each contender is started once per origin and round",
        };
    }
}
