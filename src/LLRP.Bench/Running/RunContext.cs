using LLRP.Bench.Certificates;
using LLRP.Bench.Load;
using LLRP.Bench.Origins;
using LLRP.Bench.Results;

namespace LLRP.Bench.Running;

/// <summary>What every step of a run shares: options, ports, CPU placement, load tools, the result being filled.</summary>
public sealed record RunContext
{
    public required BenchOptions Options { get; init; }

    public required RunResult Result { get; init; }

    public required int ProxyPort { get; init; }

    public required OriginPlan Origins { get; init; }

    /// <summary>Idle connections opened to each contender (the option, lowered to what the open-file limit allows); 0 for none.</summary>
    public required int IdleConnectionCount { get; init; }

    /// <summary><c>taskset -c</c> list for the contender; null when unpinned.</summary>
    public required string? ProxyCpus { get; init; }

    /// <summary><c>taskset -c</c> list for the origins, wrk and curl; null when unpinned.</summary>
    public required string? LoadCpus { get; init; }

    public required WrkRunner Wrk { get; init; }

    /// <summary>The load of the HTTP/2 shapes (<see cref="LoadShape.IsHttp2"/>).</summary>
    public required H2loadRunner H2load { get; init; }

    public required LargeBodyRunner LargeBodies { get; init; }

    /// <summary>Accepts any server certificate: the TLS origins and contenders use the run's self-signed one.</summary>
    public required HttpClient Http { get; init; }

    /// <summary>The run's certificate; made before the origins start when a selected shape has a TLS leg.</summary>
    public required TlsCertificate Certificate { get; init; }

    public string LogDirectory => Path.Combine(Options.ResultsDirectory, "logs");
}
