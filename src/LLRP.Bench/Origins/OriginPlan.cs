using LLRP.Bench.Load;
using LLRP.Bench.Processes;

namespace LLRP.Bench.Origins;

/// <summary>
/// Which origin serves what, and where. The http shapes go to <see cref="ShapesOrigin"/>; when a selected shape has a TLS
/// leg, the same origin process also listens with TLS on <see cref="ShapesTlsPort"/>. The 1 GiB bodies and the WebSocket
/// echo always go to the bundled origin: its /sink counts and hashes the upload, while nginx's <c>return</c> answers before
/// a large upload has arrived, which a proxy must treat as an early response; and nginx cannot echo WebSocket messages.
/// With nginx for the shapes and the bundled origin needed too, two origins run, and every contender is started once per
/// origin (and per pair of schemes) in each round. A balancing shape (<see cref="LoadShape.IsBalance"/>) goes to
/// <see cref="Balance"/>: the shapes' origin, a second origin of the same kind, and the bundled origin delaying every
/// response (nginx cannot wait before it answers).
/// </summary>
public sealed record OriginPlan
{
    public required OriginKind ShapesOrigin { get; init; }

    public required int ShapesPort { get; init; }

    /// <summary>The shapes' origin's TLS port (same process as <see cref="ShapesPort"/>); null when no selected shape has a TLS leg.</summary>
    public required int? ShapesTlsPort { get; init; }

    /// <summary>
    /// The nginx origin's h2c port (same process as <see cref="ShapesPort"/>), direct's target in the HTTP/2 shapes; null
    /// when no HTTP/2 shape is selected or the bundled origin serves the shapes.
    /// </summary>
    public int? ShapesH2cPort { get; init; }

    /// <summary>The bundled origin's port for the 1 GiB bodies and the WebSocket echo; null when neither runs.</summary>
    public required int? BundledPort { get; init; }

    /// <summary>The origins of the balancing shapes, fast ones first, the shapes' origin the first of them; empty when none is selected.</summary>
    public IReadOnlyList<OriginProcess> Balance { get; init; } = [];

    /// <summary>
    /// The bundled origins speaking HTTP/2 only (h2c), for the shapes with HTTP/2 to the origin
    /// (<see cref="Legs.OriginHttp2"/>): one with Kestrel's default stream limit for the gRPC calls (and for HTTP/2 GETs when
    /// nginx does not serve the shapes), one per lower stream limit a shape asks for; empty when no such shape is selected.
    /// </summary>
    public IReadOnlyList<OriginProcess> Http2Origins { get; init; } = [];

    /// <summary>Why the shapes do not use the nginx origin although it was not ruled out by the options; null otherwise.</summary>
    public string? FallbackNote { get; init; }

    /// <summary>True when the bundled origin is a process of its own, beside an nginx origin for the shapes.</summary>
    public bool HasSeparateBundledOrigin => BundledPort is { } port && port != ShapesPort;

    /// <summary>Every origin to start, each once.</summary>
    public IEnumerable<OriginProcess> Origins
    {
        get
        {
            yield return new OriginProcess(NameOf(ShapesOrigin), "the shapes'", ShapesOrigin, ShapesPort, ShapesTlsPort, H2cPort: ShapesH2cPort);
            if (HasSeparateBundledOrigin)
            {
                yield return new OriginProcess(NameOf(OriginKind.Bundled), "the bundled", OriginKind.Bundled, BundledPort!.Value);
            }

            foreach (var origin in Balance.Skip(1))
            {
                yield return origin;
            }

            foreach (var origin in Http2Origins)
            {
                yield return origin;
            }
        }
    }

    /// <summary>
    /// The h2c port a shape with HTTP/2 to the origin goes to, for the contenders and for direct: the bundled origin with the
    /// shape's stream limit; for gRPC, the bundled h2c origin; otherwise the nginx origin's h2c listener (nginx is never the
    /// ceiling there), or the bundled h2c origin when nginx does not serve the shapes.
    /// </summary>
    public int Http2OriginPort(LoadShape shape)
    {
        if (shape.OriginMaxStreams > 0)
        {
            return Http2Origins.First(o => o.MaxStreams == shape.OriginMaxStreams).Port;
        }

        return !shape.Grpc && ShapesH2cPort is { } nginx ? nginx : Http2Origins.First(o => o.MaxStreams == 0).Port;
    }

    /// <summary>Picks the shapes' origin (nginx when asked for, or by default when installed) and free ports for what <paramref name="shapes"/> need.</summary>
    /// <exception cref="InvalidOperationException">nginx was asked for and is not installed.</exception>
    /// <param name="portMoves">Where a port that had to move from the one asked for is said.</param>
    public static OriginPlan Create(BenchOptions options, int proxyPort, IReadOnlyList<LoadShape> shapes, ICollection<string> portMoves)
    {
        var nginxInstalled = ExecutableSearch.IsOnPath("nginx");
        if (options.Origin == OriginKind.Nginx && !nginxInstalled)
        {
            throw new InvalidOperationException("--origin nginx: nginx is not installed (apt-get install nginx)");
        }

        var kind = options.Origin ?? (nginxInstalled ? OriginKind.Nginx : OriginKind.Bundled);
        var shapesPort = LoopbackPorts.Claim($"the shapes' origin ({NameOf(kind)}, --origin-port)", options.OriginPort, portMoves, proxyPort);
        int? tlsPort = shapes.Any(s => s.Legs.AnyTls) ? LoopbackPorts.Claim($"the shapes' origin's https listener ({NameOf(kind)})", shapesPort + 1, portMoves, proxyPort) : null;
        int? bundledPort = !options.LargeBodies && !shapes.Any(s => s.IsWebSocket) ? null
            : kind == OriginKind.Bundled ? shapesPort
            : LoopbackPorts.Claim("the bundled origin (large bodies, WebSocket)", Math.Max(shapesPort, tlsPort ?? 0) + 1, portMoves, proxyPort);
        int? h2cPort = kind == OriginKind.Nginx && shapes.Any(s => s.Legs.ClientHttp2)
            ? LoopbackPorts.Claim("the shapes' origin's h2c listener (nginx)", Math.Max(shapesPort, Math.Max(tlsPort ?? 0, bundledPort ?? 0)) + 1, portMoves, proxyPort)
            : null;
        List<OriginProcess> balance = [];
        if (shapes.FirstOrDefault(s => s.IsBalance) is { } balanced)
        {
            var secondPort = LoopbackPorts.Claim("the balance shape's second fast origin", Math.Max(Math.Max(shapesPort, h2cPort ?? 0), Math.Max(tlsPort ?? 0, bundledPort ?? 0)) + 1, portMoves, proxyPort);
            var slowPort = LoopbackPorts.Claim("the balance shape's slow origin", secondPort + 1, portMoves, proxyPort);
            balance =
            [
                new OriginProcess(NameOf(kind), "fast 1", kind, shapesPort),
                new OriginProcess(NameOf(kind) + "-fast2", "fast 2", kind, secondPort),
                new OriginProcess("origin-bundled-slow", "slow", OriginKind.Bundled, slowPort, DelayMs: balanced.SlowOriginDelayMs),
            ];
        }

        List<OriginProcess> http2Origins = [];
        var toOrigin = shapes.Where(s => s.Legs.OriginHttp2).ToList();
        if (toOrigin.Any(s => s.OriginMaxStreams == 0 && (s.Grpc || h2cPort is null)))
        {
            http2Origins.Add(new OriginProcess("origin-bundled-h2c", "the h2c", OriginKind.Bundled, 0, Http2Only: true));
        }

        http2Origins.AddRange(toOrigin.Select(s => s.OriginMaxStreams).Where(limit => limit > 0).Distinct()
            .Select(limit => new OriginProcess($"origin-bundled-h2c-{limit}streams", $"the h2c ({limit} streams)", OriginKind.Bundled, 0, Http2Only: true, MaxStreams: limit)));
        var lastPort = new[] { shapesPort, tlsPort ?? 0, bundledPort ?? 0, h2cPort ?? 0 }.Concat(balance.Select(o => o.Port)).Max();
        for (var i = 0; i < http2Origins.Count; i++)
        {
            lastPort = LoopbackPorts.Claim($"{http2Origins[i].Label} origin", lastPort + 1, portMoves, proxyPort);
            http2Origins[i] = http2Origins[i] with { Port = lastPort };
        }

        return new OriginPlan
        {
            Http2Origins = http2Origins,
            ShapesOrigin = kind,
            ShapesPort = shapesPort,
            ShapesTlsPort = tlsPort,
            ShapesH2cPort = h2cPort,
            BundledPort = bundledPort,
            Balance = balance,
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
        if (ShapesTlsPort is { } tls)
        {
            shapes += $", with TLS on 127.0.0.1:{tls} (self-signed certificate from scripts/tls-cert.sh)";
        }

        if (ShapesH2cPort is { } h2c)
        {
            shapes += $", with h2c (HTTP/2 only) on 127.0.0.1:{h2c} for direct in the HTTP/2 shapes";
        }

        var described = BundledPort switch
        {
            null => shapes,
            var port when port == ShapesPort => shapes + "; the 1 GiB bodies and the WebSocket echo: the same origin",
            var port => shapes + $"; the 1 GiB bodies and the WebSocket echo: the bundled Kestrel origin (its /sink counts the upload, /ws echoes) on 127.0.0.1:{port}; "
                + "each contender is started once per origin and pair of schemes in each round",
        };
        if (Http2Origins.Count > 0)
        {
            described += "; the shapes with HTTP/2 to the origin: " + string.Join(", ", Http2Origins.Select(o => $"{o.Label} = {o.Describe()}"))
                + (ShapesH2cPort is null ? "" : " (HTTP/2 GETs of the default stream limit: the nginx origin's h2c listener)");
        }

        return Balance.Count == 0
            ? described
            : described + "; the balancing shapes: " + string.Join(", ", Balance.Select(o => $"{o.Label} = {o.Describe()}"))
                + " (the first is the shapes' origin), each contender started once more in front of all three";
    }

    private static string NameOf(OriginKind kind) => kind == OriginKind.Nginx ? "origin-nginx" : "origin-bundled";
}
