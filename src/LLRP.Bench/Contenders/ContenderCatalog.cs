using LLRP.Bench.Certificates;
using LLRP.Bench.Processes;

namespace LLRP.Bench.Contenders;

/// <summary>Every contender of DESIGN.md's benchmark method, in the order they are interleaved.</summary>
public static class ContenderCatalog
{
    /// <summary>The contenders of <c>--quick</c>.</summary>
    public static readonly IReadOnlyList<string> QuickNames = ["direct", "llrp-raw-perclient", "nginx", "haproxy"];

    /// <summary>The ×baseline column uses the first of these that has results: the full YARP app, as the original LLRP compared.</summary>
    public static readonly IReadOnlyList<string> BaselineCandidates = ["yarp-app", "llrp-yarp", "httpclient-proxy"];

    /// <summary>
    /// The layers of a .NET proxy, cheapest first: each contender adds one layer to the one before, so the difference of
    /// their CPU per request is what that layer costs.
    /// </summary>
    public static readonly IReadOnlyList<(string Contender, string Layer)> Layers =
    [
        ("llrp-raw-perclient", "LLRP's session and its own HTTP/1.1 client"),
        ("llrp-httpclient", "HttpClient (SocketsHttpHandler) instead of LLRP's client"),
        ("llrp-httpclient-httpcontext", "a light HttpContext between the two"),
        ("llrp-yarp", "YARP's IHttpForwarder instead of LLRP's HttpClient code"),
        ("yarp-app", "ASP.NET Core's HTTP server, routing and middleware, YARP's default transforms"),
    ];

    private static readonly Dictionary<string, string> _dotNetEnvironment = new() { ["DOTNET_gcServer"] = "0" };

    /// <summary>
    /// Our servers are built with TieredCompilation=false (src/Directory.Build.props); YARP's users run with the runtime's
    /// default, tiering on. The environment variable overrides the runtimeconfig.json setting.
    /// </summary>
    private static readonly Dictionary<string, string> _tieredEnvironment = new(_dotNetEnvironment) { ["DOTNET_TieredCompilation"] = "1" };

    /// <summary>The contenders of <c>--baseline-ref</c>: these, built from the given revision.</summary>
    private static readonly string[] _atBaselineRef = ["llrp-raw-perclient", "llrp-raw-pooled", "llrp-httpclient", "llrp-httpclient-httpcontext", "llrp-tcp", "llrp-raw-pooled-h2llrp", "llrp-raw-pooled-h2client", "llrp-raw-pooled-epoll"];

    /// <param name="options">Where the builds are and where generated configs go.</param>
    /// <param name="proxyPort">Where the contender listens; the origins are <see cref="Contender.OriginsToken"/> in the arguments.</param>
    /// <remarks>
    /// LLRP, HAProxy and nginx take several origins (LLRP <c>downstream=a;b;c</c>, the scripts <c>--downstream a,b,c</c>);
    /// their variants named after a balancing policy run only the shapes with several origins. With TLS on the client
    /// leg, LLRP gets <c>urls=https://…</c>, <c>tls.certificatePath</c> and <c>tls.certificatePassword</c>; on the origin
    /// leg, <c>downstream=https://…</c> and <c>tls.downstreamInsecure=true</c>. The baseline apps get Kestrel's
    /// certificate keys and <c>tls.downstreamInsecure=true</c> too; HAProxy and nginx their scripts' <c>--scheme</c>,
    /// <c>--downstream-scheme</c> and <c>--tls-cert</c>.
    /// </remarks>
    public static IReadOnlyList<Contender> Create(BenchOptions options, int proxyPort)
    {
        var listen = $"127.0.0.1:{proxyPort}";
        var certificate = TlsCertificate.For(options);
        var llrp = Path.Combine(options.PublishRoot, "LLRP", "LLRP.dll");
        Contender Llrp(string name, string description, params string[] arguments) => DotNet(
            name,
            description,
            llrp,
            [$"--urls={Contender.SchemeToken}://{listen}", $"--downstream={Contender.OriginsToken}", .. arguments]) with
        {
            ClientTlsArguments = [$"--tls.certificatePath={certificate.PfxPath}", $"--tls.certificatePassword={TlsCertificate.Password}"],
            OriginTlsArguments = ["--tls.downstreamInsecure=true"],
            OriginSeparator = ";",
            Balancing = "roundRobinPerConnection (LLRP's default)",
        };

        Contender[] contenders =
        [
            new Contender { Name = "direct", Description = "no proxy: wrk → origin (HTTP/2 shapes: h2load → the origin's h2c listener)", Kind = ContenderKind.Direct, ClientHttp2Arguments = [], OriginHttp2Arguments = [] },
            Llrp("llrp-raw-perclient", "LLRP raw mode, one upstream connection per client connection", "--mode=raw", "--upstreamConnections=perClient"),
            Http2ToOrigin(Llrp("llrp-raw-pooled", "LLRP raw mode, pooled upstream connections (HTTP/2 shapes: h2c on the same url, HTTP/1.1 to the origin; HTTP/2 to the origin: a cluster at HttpRequest:Version 2)", "--mode=raw", "--upstreamConnections=pooled") with { ClientHttp2Arguments = [] }),
            Http2ToOrigin(Llrp("llrp-raw-pooled-h2single", "LLRP raw mode, pooled; HTTP/2 to the origin on one connection (the cluster's HttpClient:EnableMultipleHttp2Connections false)", "--mode=raw", "--upstreamConnections=pooled") with { ClientHttp2Arguments = [], OriginHttp2Only = true }, "HttpClient:EnableMultipleHttp2Connections=false"),
            Http2ToOrigin(Llrp("llrp-raw-pooled-h2llrp", "LLRP raw mode, pooled, LLRP's own HTTP/2 server named (http2.server=llrp, the default since it replaced Kestrel's there, so a revision of either time runs it; HTTP/2 shapes as llrp-raw-pooled)", "--mode=raw", "--upstreamConnections=pooled", "--http2.server=llrp") with { ClientHttp2Arguments = [] }),
            Http2ToOrigin(Llrp("llrp-raw-pooled-h2kestrel", "LLRP raw mode, pooled, Kestrel's HTTP/2 server (http2.server=kestrel) in place of LLRP's own (HTTP/2 shapes as llrp-raw-pooled)", "--mode=raw", "--upstreamConnections=pooled", "--http2.server=kestrel") with { ClientHttp2Arguments = [] }),
            Http2ToOrigin(Llrp("llrp-raw-pooled-h2client", "LLRP raw mode, pooled, LLRP's own HTTP/2 client named (http2.client=llrp, raw mode's default since it measured better than HttpClient's, so a revision of either time runs it; HTTP/2 shapes as llrp-raw-pooled)", "--mode=raw", "--upstreamConnections=pooled", "--http2.client=llrp") with { ClientHttp2Arguments = [] }),
            Http2ToOrigin(Llrp("llrp-raw-pooled-h2httpclient", "LLRP raw mode, pooled, HttpClient's HTTP/2 (http2.client=httpclient) to HTTP/2 origins in place of LLRP's own client (HTTP/2 shapes as llrp-raw-pooled)", "--mode=raw", "--upstreamConnections=pooled", "--http2.client=httpclient") with { ClientHttp2Arguments = [] }),
            Llrp("llrp-raw-pooled-pipelined", "LLRP raw mode, pooled, HTTP/2 streams' bodiless GET and HEAD requests read together pipelined on one upstream connection, up to 10 (pool.pipelineDepth=10; HTTP/2 shapes: h2c on the same url, HTTP/1.1 to the origin)", "--mode=raw", "--upstreamConnections=pooled", "--pool.pipelineDepth=10") with { ClientHttp2Arguments = [] },
            Llrp("llrp-raw-pooled-epoll", "LLRP raw mode, pooled, LLRP's epoll transport (HTTP/2 shapes: h2c on the same url, HTTP/1.1 to the origin over the epoll loops)", "--mode=raw", "--upstreamConnections=pooled", "--transport=epoll") with { ClientHttp2Arguments = [] },
            Llrp("llrp-raw-pooled-sockets", "LLRP raw mode, pooled, Kestrel's sockets transport named (transport=sockets; the default is epoll on Linux)", "--mode=raw", "--upstreamConnections=pooled", "--transport=sockets"),
            Llrp("llrp-raw-perclient-epoll", "LLRP raw mode, one upstream connection per client connection, LLRP's epoll transport", "--mode=raw", "--upstreamConnections=perClient", "--transport=epoll"),
            NativeAot(Llrp("llrp-raw-pooled-aot", "LLRP raw mode, pooled, built with NativeAOT (scripts/publish-aot.sh)", "--mode=raw", "--upstreamConnections=pooled"), options),
            Llrp("llrp-raw-pooled-accesslog", "LLRP raw mode, pooled, access log (combined) to a file in the results directory", "--mode=raw", "--upstreamConnections=pooled", $"--accessLog={Path.Combine(options.ResultsDirectory, "access.log")}"),
            Routed(Llrp("llrp-raw-pooled-100routes", "LLRP raw mode, pooled, 100 routes of a ReverseProxy section; the load takes the last", "--mode=raw", "--upstreamConnections=pooled")),
            Balanced(Llrp("llrp-raw-pooled-roundrobin", "LLRP raw mode, pooled, a destination per request in turn", "--mode=raw", "--upstreamConnections=pooled", "--balancing=roundRobin"), "roundRobin"),
            Balanced(Llrp("llrp-raw-pooled-leastrequests", "LLRP raw mode, pooled, the destination with the fewest requests in flight", "--mode=raw", "--upstreamConnections=pooled", "--balancing=leastRequests"), "leastRequests"),
            Balanced(Llrp("llrp-raw-pooled-p2c", "LLRP raw mode, pooled, the less busy of two random destinations", "--mode=raw", "--upstreamConnections=pooled", "--balancing=powerOfTwoChoices"), "powerOfTwoChoices"),
            Llrp("llrp-httpclient", "LLRP HttpClient mode, one client per connection", "--mode=httpclient"),
            Llrp("llrp-httpclient-shared1", "LLRP HttpClient mode, one shared client", "--mode=httpclient", "--shareClients=true", "--shareClients.count=1"),
            Llrp("llrp-httpclient-rr4", "LLRP HttpClient mode, 4 shared clients round-robin", "--mode=httpclient", "--shareClients=true", "--shareClients.roundRobin=true", "--shareClients.count=4"),
            Llrp("llrp-httpclient-httpcontext", "LLRP light HttpContext + HttpClient mode", "--mode=httpclient-httpcontext"),
            Llrp("llrp-yarp", "LLRP light HttpContext + YARP IHttpForwarder mode", "--mode=yarp"),
            Balanced(Llrp("llrp-yarp-leastrequests", "LLRP YARP mode, the destination with the fewest requests in flight", "--mode=yarp", "--balancing=leastRequests"), "leastRequests"),
            WithOriginHttp2(Baseline(options, "yarp-app", "full ASP.NET Core + YARP app (HTTP/2 shapes: a Kestrel Http2 endpoint; HTTP/2 to the origin: its cluster's HttpRequest Version 2, RequestVersionExact)", "YarpProxy", listen) with { ClientHttp2Arguments = ["--Kestrel:EndpointDefaults:Protocols=Http2"] }, "--downstream.httpVersion=2"),
            Baseline(options, "yarp-app-tiered", "full ASP.NET Core + YARP app, tiered compilation on", "YarpProxy", listen, _tieredEnvironment),
            Baseline(options, "httpclient-proxy", "full ASP.NET Core + HttpClient proxy", "HttpClientProxy", listen),
            WithOriginHttp2(Native(options, "haproxy", "HAProxy, nbthread 1, http-reuse safe (HTTP/2 shapes: bind … proto h2; HTTP/2 to the origin: server … proto h2)", "haproxy", listen, "roundrobin (HAProxy's default)") with { ClientHttp2Arguments = ["--proto", "h2"] }, "--downstream-proto", "h2"),
            Native(options, "haproxy-leastconn", "HAProxy as above, balance leastconn", "haproxy", listen, "leastconn", "--balance", "leastconn"),
            WithOriginHttp2(Native(options, "nginx", "nginx, 1 worker, upstream keepalive 64 (HTTP/2 shapes: listen … http2; HTTP/2 to the origin: grpc_pass)", "nginx", listen, "round robin (nginx's default)") with { ClientHttp2Arguments = ["--http2"] }, "--downstream-proto", "h2"),
            Native(options, "nginx-leastconn", "nginx as above, least_conn", "nginx", listen, "least_conn", "--balance", "least_conn"),
            Native(options, "nginx-p2c", "nginx as above, random two least_conn", "nginx", listen, "random two least_conn", "--balance", "random_two_least_conn"),
            TcpRelay(DotNet(
                "llrp-tcp",
                "LLRP, a TCP route (ReverseProxy:TcpRoutes) to a cluster of the origin",
                llrp,
                [
                    "--urls=http://127.0.0.1:0",
                    $"--ReverseProxy:TcpRoutes:relay:Listen={listen}",
                    "--ReverseProxy:TcpRoutes:relay:ClusterId=origin",
                    $"--ReverseProxy:Clusters:origin:Destinations:o:Address={Contender.OriginsToken}",
                    "--Logging:LogLevel:Default=Warning",
                ]) with { OriginTemplate = $"tcp://{Contender.OriginToken}" }),
            TcpRelay(Native(options, "haproxy-tcp", "HAProxy, nbthread 1, mode tcp", "haproxy", listen, "roundrobin (HAProxy's default)")),
            TcpRelay(WithArguments(Native(options, "haproxy-tcp-splice", "HAProxy, nbthread 1, mode tcp, option splice-auto", "haproxy", listen, "roundrobin (HAProxy's default)"), "--splice")),
            TcpRelay(Native(options, "nginx-stream", "nginx, 1 worker, stream module (proxy_pass to the origin)", "nginx", listen, "round robin (nginx's default)")),
        ];
        return options.BaselineRef is { } reference ? [.. contenders, .. AtRevision(contenders, options, reference)] : contenders;
    }

    /// <summary>The <see cref="_atBaselineRef"/> contenders again, run from LLRP as built at git revision <paramref name="reference"/>.</summary>
    private static IEnumerable<Contender> AtRevision(Contender[] contenders, BenchOptions options, string reference)
    {
        var built = Path.Combine(options.PublishRoot, "LLRP@" + reference, "LLRP.dll");
        return contenders.Where(c => _atBaselineRef.Contains(c.Name)).Select(c => c with
        {
            Name = $"{c.Name}@{reference}",
            Description = $"{c.Name} built from {reference}",
            Arguments = [built, .. c.Arguments.Skip(1)],
            OriginHttp2Arguments = c.OriginHttp2Arguments is { } http2 ? [built, .. http2.Skip(1)] : null,
            UnavailableReason = NotBuilt(built),
        });
    }

    /// <summary>
    /// A variant of an LLRP contender whose request goes through a table of <see cref="RoutedTableSize"/> routes given as
    /// <c>ReverseProxy</c> keys on the command line: 99 routes of distinct first segments (a third of them on a host of
    /// their own), then the catch-all route the load takes, to one cluster of the origin. It takes one origin.
    /// </summary>
    private static Contender Routed(Contender contender)
    {
        var routes = Enumerable.Range(0, RoutedTableSize - 1).SelectMany(i => (IEnumerable<string>)
        [
            $"--ReverseProxy:Routes:r{i}:ClusterId=origin",
            $"--ReverseProxy:Routes:r{i}:Match:Path=/r{i}/{{**rest}}",
            .. i % 3 == 0 ? [$"--ReverseProxy:Routes:r{i}:Match:Hosts:0=h{i}.example"] : Array.Empty<string>(),
        ]);
        return contender with
        {
            Arguments =
            [
                .. contender.Arguments.Where(argument => !argument.StartsWith("--downstream=", StringComparison.Ordinal)),
                .. routes,
                "--ReverseProxy:Routes:all:ClusterId=origin",
                "--ReverseProxy:Routes:all:Match:Path={**catch-all}",
                $"--ReverseProxy:Clusters:origin:Destinations:o:Address={Contender.OriginsToken}",
            ],
            Balancing = null,
        };
    }

    /// <summary>
    /// An LLRP contender that also runs the shapes with HTTP/2 to the origin: there, its <c>--downstream</c> becomes a
    /// <c>ReverseProxy</c> catch-all route to a cluster of the origin at <c>HttpRequest:Version</c> 2 with
    /// <c>RequestVersionExact</c> (h2c by prior knowledge), plus <paramref name="clusterArguments"/>' cluster keys.
    /// </summary>
    private static Contender Http2ToOrigin(Contender contender, params string[] clusterArguments) => contender with
    {
        OriginHttp2Arguments =
        [
            .. contender.Arguments.Where(argument => !argument.StartsWith("--downstream=", StringComparison.Ordinal)),
            "--ReverseProxy:Routes:all:ClusterId=origin",
            "--ReverseProxy:Routes:all:Match:Path={**catch-all}",
            $"--ReverseProxy:Clusters:origin:Destinations:o:Address={Contender.OriginsToken}",
            "--ReverseProxy:Clusters:origin:HttpRequest:Version=2",
            "--ReverseProxy:Clusters:origin:HttpRequest:VersionPolicy=RequestVersionExact",
            .. clusterArguments.Select(argument => "--ReverseProxy:Clusters:origin:" + argument),
        ],
    };

    /// <summary>A contender that also runs the shapes with HTTP/2 to the origin, with <paramref name="arguments"/> added there.</summary>
    private static Contender WithOriginHttp2(Contender contender, params string[] arguments)
        => contender with { OriginHttp2Arguments = [.. contender.Arguments, .. arguments] };

    /// <summary>The routes of <see cref="Routed"/> contenders.</summary>
    private const int RoutedTableSize = 100;

    /// <summary>A TCP relay (L4): its script's <c>--mode tcp</c> for HAProxy and nginx; it runs the TCP shapes only.</summary>
    private static Contender TcpRelay(Contender contender) => contender with
    {
        Arguments = contender.Kind == ContenderKind.Native ? [.. contender.Arguments, "--mode", "tcp"] : contender.Arguments,
        Balancing = null,
        TcpOnly = true,
    };

    /// <summary>A contender with <paramref name="more"/> arguments after its own.</summary>
    private static Contender WithArguments(Contender contender, params string[] more) => contender with { Arguments = [.. contender.Arguments, .. more] };

    /// <summary>An LLRP contender run from the NativeAOT build (<c>artifacts/publish/LLRP-aot/LLRP</c>) instead of LLRP.dll.</summary>
    private static Contender NativeAot(Contender contender, BenchOptions options)
    {
        var executable = Path.Combine(options.PublishRoot, "LLRP-aot", "LLRP");
        return contender with
        {
            FileName = executable,
            Arguments = [.. contender.Arguments.Skip(1)],
            UnavailableReason = File.Exists(executable) ? null : $"not built: {executable} is missing (bash scripts/publish-aot.sh; bench.sh runs it when --only names an -aot contender)",
        };
    }

    /// <summary>A variant of a contender that differs in how it balances only, so it runs only the shapes with several origins.</summary>
    private static Contender Balanced(Contender contender, string policy) => contender with { Balancing = policy, BalancingOnly = true };

    private static Contender DotNet(
        string name, string description, string dll, string[] arguments, IReadOnlyDictionary<string, string>? environment = null) => new()
    {
        Name = name,
        Description = description,
        Kind = ContenderKind.DotNet,
        FileName = "dotnet",
        Arguments = [dll, .. arguments],
        OriginTemplate = $"{Contender.OriginSchemeToken}://{Contender.OriginToken}",
        Environment = environment ?? _dotNetEnvironment,
        UnavailableReason = NotBuilt(dll),
    };

    private static string? NotBuilt(string dll) => File.Exists(dll) ? null : $"not built: {dll} is missing (see build.log)";

    private static Contender Baseline(
        BenchOptions options, string name, string description, string folder, string listen,
        IReadOnlyDictionary<string, string>? environment = null)
    {
        var projectFolder = Path.Combine(options.RepositoryRoot, "src", "Baselines", folder);
        var project = Directory.Exists(projectFolder) ? Directory.GetFiles(projectFolder, "*.csproj").FirstOrDefault() : null;
        if (project is null)
        {
            return new Contender
            {
                Name = name,
                Description = description,
                Kind = ContenderKind.DotNet,
                UnavailableReason = $"src/Baselines/{folder} has no project",
            };
        }

        var assembly = Path.GetFileNameWithoutExtension(project);
        var dll = Path.Combine(options.PublishRoot, assembly, assembly + ".dll");
        var arguments = new[] { $"--urls={Contender.SchemeToken}://{listen}", $"--downstream={Contender.OriginsToken}", "--Logging:LogLevel:Default=Warning" };
        return DotNet(name, description, dll, arguments, environment) with
        {
            ClientTlsArguments = TlsCertificate.For(options).KestrelArguments,
            OriginTlsArguments = ["--tls.downstreamInsecure=true"],
        };
    }

    /// <param name="balancing">The algorithm its script applies over several origins, for the report.</param>
    /// <param name="balanceArguments">Empty for the script's default algorithm; otherwise <c>--balance</c> and the value.</param>
    private static Contender Native(
        BenchOptions options, string name, string description, string program, string listen, string balancing, params string[] balanceArguments) => new()
    {
        Name = name,
        Description = description,
        Kind = ContenderKind.Native,
        FileName = "bash",
        Arguments =
        [
            Path.Combine(options.RepositoryRoot, "scripts", program + ".sh"),
            "--listen", listen,
            "--downstream", Contender.OriginsToken,
            "--dir", Path.Combine(options.ResultsDirectory, name),
            "--scheme", Contender.SchemeToken,
            "--downstream-scheme", Contender.OriginSchemeToken,
            "--tls-cert", TlsCertificate.For(options).Directory,
            .. balanceArguments,
        ],
        Balancing = balancing,
        BalancingOnly = balanceArguments.Length > 0,
        UnavailableReason = ExecutableSearch.IsOnPath(program) ? null : $"'{program}' is not installed (apt-get install {program})",
    };
}
