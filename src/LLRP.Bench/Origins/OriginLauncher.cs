using LLRP.Bench.Load;
using LLRP.Bench.Processes;
using LLRP.Bench.Running;

namespace LLRP.Bench.Origins;

/// <summary>
/// Starts an origin on the load CPU (nginx serving every size the shapes ask for), also listening with TLS when given a
/// TLS port, and waits until each of its ports answers <c>GET /?s=10</c> with 10 bytes.
/// </summary>
public static class OriginLauncher
{
    /// <exception cref="InvalidOperationException">The origin is not built, or did not start.</exception>
    public static async Task<ChildProcess> StartAsync(OriginKind kind, int port, int? tlsPort, RunContext context, CancellationToken cancellationToken)
    {
        var options = context.Options;
        var name = kind == OriginKind.Nginx ? "origin-nginx" : "origin-bundled";
        ChildProcess origin;
        if (kind == OriginKind.Nginx)
        {
            List<string> arguments =
            [
                Path.Combine(options.RepositoryRoot, "scripts", "nginx-origin.sh"),
                "--listen", $"127.0.0.1:{port}",
                "--dir", Path.Combine(options.ResultsDirectory, name),
                "--sizes", string.Join(',', LoadShapes.All.Select(shape => shape.ResponseSize).OfType<int>().Distinct()),
            ];
            if (tlsPort is { } tls)
            {
                arguments.AddRange(["--tls-listen", $"127.0.0.1:{tls}", "--tls-cert", context.Certificate.Directory]);
            }

            origin = ChildProcess.Start("bash", arguments, new Dictionary<string, string>(), context.LoadCpus, Path.Combine(context.LogDirectory, name + ".log"));
        }
        else
        {
            var dll = Path.Combine(options.PublishRoot, "LLRP.Downstream", "LLRP.Downstream.dll");
            if (!File.Exists(dll))
            {
                throw new InvalidOperationException($"the origin is not built: {dll} is missing");
            }

            List<string> arguments = tlsPort is { } tls
                ? [dll, $"--urls=http://127.0.0.1:{port};https://127.0.0.1:{tls}", .. context.Certificate.KestrelArguments]
                : [dll, $"--urls=http://127.0.0.1:{port}"];
            origin = ChildProcess.Start(
                "dotnet",
                arguments,
                new Dictionary<string, string> { ["DOTNET_gcServer"] = "0" },
                context.LoadCpus,
                Path.Combine(context.LogDirectory, name + ".log"));
        }

        var error = await Readiness.WaitAsync(context.Http, "http", port, origin, TimeSpan.FromSeconds(30), cancellationToken);
        if (error is null && tlsPort is { } tlsReady)
        {
            error = await Readiness.WaitAsync(context.Http, "https", tlsReady, origin, TimeSpan.FromSeconds(30), cancellationToken);
        }

        if (error is not null)
        {
            await origin.DisposeAsync();
            throw new InvalidOperationException($"the {(kind == OriginKind.Nginx ? "nginx" : "bundled")} origin did not start: {error}");
        }

        return origin;
    }
}
