using System.Globalization;
using LLRP.Bench.Origins;

namespace LLRP.Bench;

/// <summary>The runner's command line; see <see cref="Usage"/>.</summary>
public sealed record BenchOptions
{
    public const string Usage = """
        usage: bash scripts/bench.sh [options]
          --quick              1 round, GET 10 B with 32 connections, 2 s, no large bodies, no idle connections;
                               contenders direct, llrp-raw-perclient, nginx, haproxy
          --rounds N           rounds of interleaved contenders (default 3)
          --duration S         seconds measured per contender and shape (default 10)
          --warmup S           seconds of load before each measurement (default 3)
          --only a,b,...       contenders to run (names below), always in catalog order
          --shapes a,b,...     load shapes to run (names below): http on both legs (get-10b-c32, …), TLS from the client
                               (https-http-get-1kb-c32, …) or on both legs (https-https-…; the run's self-signed
                               certificate is made by scripts/tls-cert.sh), HTTP/2 with prior knowledge from the
                               client, HTTP/1.1 to the origin, driven by h2load -c 32 -m 10 (h2-get-10b-c32m10,
                               h2-post-1kb-c32m10; run by direct, llrp-raw-pooled, yarp-app, haproxy and nginx), a WebSocket echo of 64 KiB messages
                               (ws-64kib-c32, always through the bundled origin); default: all of these. Only when
                               named: balance-slow-c64, GET 10 B with 64 connections through a contender balancing
                               over three origins, two fast (the shapes' origin and another of its kind) and the
                               bundled origin delaying every response 20 ms; the table adds the contender's policy and
                               the share of requests each origin received. Run by LLRP, HAProxy and nginx (not direct
                               or the baseline apps, which take one origin) and by their balancing variants
                               (llrp-raw-pooled-roundrobin, -leastrequests, -p2c, llrp-yarp-leastrequests,
                               haproxy-leastconn, nginx-leastconn, nginx-p2c), which run nothing else. Only when
                               named too: tcp-long and tcp-short, GET 10 B with 32 connections through a TCP relay,
                               keep-alive or Connection: close (one TCP connection per request), run by direct and the
                               TCP relays llrp-tcp (a TCP route), haproxy-tcp (mode tcp), haproxy-tcp-splice (mode
                               tcp, option splice-auto) and nginx-stream, which run nothing else; with them the TCP
                               relays also move the 1 GiB bodies (tcp-1gib) and hold the idle connections, and when
                               every shape is a TCP shape, only they (and direct) do. Only when named too, HTTP/2 on
                               both legs (h2c): h2h2-get-10b-c32m10
                               (h2load -c 32 -m 10 to the nginx origin's h2c listener), grpc-unary-c32 (Grpc.Net.Client
                               in the runner, 4 channels x 8 calls in flight, to the bundled origin's gRPC Echo on an
                               h2c-only listener) and h2scale-c1m100 (h2load -c 1 -m 100 to a bundled h2c origin allowing
                               10 streams per connection), run by direct, llrp-raw-pooled, yarp-app, haproxy
                               (server ... proto h2), nginx (grpc_pass) and llrp-raw-pooled-h2single (the cluster's
                               HttpClient:EnableMultipleHttp2Connections false), which runs nothing else;
                               grpc-unary-h2load-c4m8: the same gRPC calls by h2load -c 4 -m 8 (a POST of one framed
                               Echo request, content-type application/grpc, te trailers), a contender failing when a
                               check call or the origin's count of calls answered OK disagrees with h2load's 2xx
          --unpinned           do not pin the proxy to core 0 and origin + load to core 1
          --no-large-bodies    skip the 1 GiB download and upload
          --origin nginx|bundled
                               origin of the shapes: nginx serving fixed files (scripts/nginx-origin.sh; the default
                               when nginx is installed) or the bundled Kestrel origin (src/LLRP.Downstream). The 1 GiB
                               bodies always use the bundled origin, which checks the upload; with nginx for the shapes
                               each contender is started twice per round, once in front of each origin
          --idle-connections N open N keep-alive connections to each contender after its shapes, one GET each, and
                               measure its RSS growth per idle connection and its upstream connections (default
                               10000; given with --quick, turns the measurement on); the contender is started again
                               for them and they come in 4 steps: per connection is the slope of RSS over the steps
          --no-idle            skip the idle connections
          --proxy-port P       port of the contender under test (default 8080)
          --origin-port P      port of the origin (default 8081; the large bodies' bundled origin takes the next free one)
          --baseline-ref REF   also run llrp-raw-perclient, llrp-raw-pooled, llrp-httpclient, llrp-httpclient-httpcontext,
                               llrp-tcp, llrp-raw-pooled-h2llrp and llrp-raw-pooled-h2client built from git REF
                               (bench.sh builds it), as <name>@REF: a before/after in the same run (with --only,
                               name them there too; --quick leaves them out)
          --repo DIR           repository root (bench.sh passes it)
          --results DIR        output folder (bench.sh passes results/<UTC timestamp>)
        """;

    public required string RepositoryRoot { get; init; }

    public required string ResultsDirectory { get; init; }

    public int Rounds { get; init; } = 3;

    public int DurationSeconds { get; init; } = 10;

    public int WarmupSeconds { get; init; } = 3;

    public bool Pinned { get; init; } = true;

    public bool LargeBodies { get; init; } = true;

    public bool Quick { get; init; }

    /// <summary>The origin of the shapes; null = nginx when installed, else the bundled origin.</summary>
    public OriginKind? Origin { get; init; }

    /// <summary>How many idle keep-alive connections are opened to each contender after its shapes; 0 for none.</summary>
    public int IdleConnectionCount { get; init; } = 10_000;

    /// <summary>Contender names to run; null = the whole catalog (or the quick set).</summary>
    public IReadOnlyList<string>? Only { get; init; }

    /// <summary>Shape names to run; null = all shapes (or the quick shape).</summary>
    public IReadOnlyList<string>? Shapes { get; init; }

    public int ProxyPort { get; init; } = 8080;

    public int OriginPort { get; init; } = 8081;

    /// <summary>A git revision whose LLRP build runs beside this one (published by bench.sh into LLRP@REF), or null.</summary>
    public string? BaselineRef { get; init; }

    public string PublishRoot => Path.Combine(RepositoryRoot, "artifacts", "publish");

    /// <exception cref="ArgumentException">An option is unknown or its value is invalid.</exception>
    public static BenchOptions Parse(string[] args)
    {
        var values = new Dictionary<string, string>(StringComparer.Ordinal);
        var flags = new HashSet<string>(StringComparer.Ordinal);
        for (var i = 0; i < args.Length; i++)
        {
            var arg = args[i];
            switch (arg)
            {
                case "--quick" or "--unpinned" or "--no-large-bodies" or "--no-idle":
                    flags.Add(arg);
                    break;
                case "--rounds" or "--duration" or "--warmup" or "--only" or "--shapes"
                    or "--proxy-port" or "--origin-port" or "--repo" or "--results" or "--baseline-ref"
                    or "--origin" or "--idle-connections":
                    if (i + 1 >= args.Length)
                    {
                        throw new ArgumentException($"{arg} needs a value");
                    }

                    values[arg] = args[++i];
                    break;
                default:
                    throw new ArgumentException($"unknown option '{arg}'");
            }
        }

        var quick = flags.Contains("--quick");
        var repository = Path.GetFullPath(values.GetValueOrDefault("--repo") ?? Directory.GetCurrentDirectory());
        return new BenchOptions
        {
            RepositoryRoot = repository,
            ResultsDirectory = Path.GetFullPath(values.GetValueOrDefault("--results")
                ?? Path.Combine(repository, "results", DateTime.UtcNow.ToString("yyyyMMdd'T'HHmmss'Z'", CultureInfo.InvariantCulture))),
            Quick = quick,
            Rounds = ReadInt(values, "--rounds", quick ? 1 : 3, 1, 100),
            DurationSeconds = ReadInt(values, "--duration", quick ? 2 : 10, 1, 600),
            WarmupSeconds = ReadInt(values, "--warmup", quick ? 1 : 3, 0, 600),
            Pinned = !flags.Contains("--unpinned"),
            LargeBodies = !quick && !flags.Contains("--no-large-bodies"),
            Origin = ReadOrigin(values),
            IdleConnectionCount = flags.Contains("--no-idle") || (quick && !values.ContainsKey("--idle-connections"))
                ? 0
                : ReadInt(values, "--idle-connections", 10_000, 1, 1_000_000),
            Only = ReadList(values, "--only"),
            Shapes = ReadList(values, "--shapes"),
            ProxyPort = ReadInt(values, "--proxy-port", 8080, 1, 65535),
            OriginPort = ReadInt(values, "--origin-port", 8081, 1, 65535),
            BaselineRef = values.GetValueOrDefault("--baseline-ref"),
        };
    }

    private static int ReadInt(Dictionary<string, string> values, string key, int defaultValue, int min, int max)
    {
        if (!values.TryGetValue(key, out var text))
        {
            return defaultValue;
        }

        return int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value) && value >= min && value <= max
            ? value
            : throw new ArgumentException($"{key} must be an integer in [{min}, {max}], got '{text}'");
    }

    private static OriginKind? ReadOrigin(Dictionary<string, string> values) => values.GetValueOrDefault("--origin") switch
    {
        null => null,
        "nginx" => OriginKind.Nginx,
        "bundled" => OriginKind.Bundled,
        var other => throw new ArgumentException($"--origin must be nginx or bundled, got '{other}'"),
    };

    private static string[]? ReadList(Dictionary<string, string> values, string key)
        => values.TryGetValue(key, out var text)
            ? text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            : null;
}
