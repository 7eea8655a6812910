using LLRP.Bench.Processes;

namespace LLRP.Bench.Certificates;

/// <summary>
/// The run's self-signed certificate for localhost and 127.0.0.1, made by scripts/tls-cert.sh into <see cref="Directory"/>
/// (the results folder's tls/) once per run, before anything that uses it starts: <c>cert.pem</c> and <c>key.pem</c>
/// (nginx), <c>haproxy.pem</c> (HAProxy), <c>cert.pfx</c> with <see cref="Password"/> (.NET).
/// </summary>
/// <param name="Directory">Where the files are.</param>
public sealed record TlsCertificate(string Directory)
{
    /// <summary>The PFX's password, as scripts/tls-cert.sh sets it.</summary>
    public const string Password = "llrp-bench";

    public string PfxPath => Path.Combine(Directory, "cert.pfx");

    /// <summary>Kestrel's certificate for its https:// urls (the bundled origin, the baseline apps).</summary>
    public IReadOnlyList<string> KestrelArguments => [$"--Kestrel:Certificates:Default:Path={PfxPath}", $"--Kestrel:Certificates:Default:Password={Password}"];

    public static TlsCertificate For(BenchOptions options) => new(Path.Combine(options.ResultsDirectory, "tls"));

    /// <exception cref="InvalidOperationException">scripts/tls-cert.sh failed (openssl missing, for one).</exception>
    public async Task CreateAsync(BenchOptions options, CancellationToken cancellationToken)
    {
        var result = await Command.RunAsync(
            "bash", [Path.Combine(options.RepositoryRoot, "scripts", "tls-cert.sh"), "--dir", Directory], null, TimeSpan.FromSeconds(60), cancellationToken);
        if (result.ExitCode != 0 || !File.Exists(PfxPath))
        {
            throw new InvalidOperationException($"scripts/tls-cert.sh could not make the TLS certificate (exit code {result.ExitCode}): {result.StandardError.Trim()}");
        }
    }
}
