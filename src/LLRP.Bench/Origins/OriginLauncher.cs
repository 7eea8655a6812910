using LLRP.Bench.Load;
using LLRP.Bench.Processes;
using LLRP.Bench.Running;

namespace LLRP.Bench.Origins;

/// <summary>
/// Starts an origin on the load CPU (nginx serving every size the shapes ask for; the bundled origin with its
/// <c>delayMs</c> when it has one, over HTTP/2 only and with its stream limit when it has them), also listening with TLS when given a TLS port, and waits until each of its ports
/// answers <c>GET /?s=10</c> with 10 bytes.
/// </summary>
public static class OriginLauncher
{
    /// <exception cref="InvalidOperationException">The origin is not built, or did not start.</exception>
    public static async Task<ChildProcess> StartAsync(OriginProcess origin, RunContext context, CancellationToken cancellationToken)
    {
        var options = context.Options;
        var log = Path.Combine(context.LogDirectory, origin.Name + ".log");
        ChildProcess process;
        if (origin.Kind == OriginKind.Nginx)
        {
            List<string> arguments =
            [
                Path.Combine(options.RepositoryRoot, "scripts", "nginx-origin.sh"),
                "--listen", $"127.0.0.1:{origin.Port}",
                "--dir", Path.Combine(options.ResultsDirectory, origin.Name),
                "--sizes", string.Join(',', LoadShapes.All.Select(shape => shape.ResponseSize).OfType<int>().Distinct()),
            ];
            if (origin.TlsPort is { } tls)
            {
                arguments.AddRange(["--tls-listen", $"127.0.0.1:{tls}", "--tls-cert", context.Certificate.Directory]);
            }

            if (origin.H2cPort is { } h2c)
            {
                arguments.AddRange(["--h2c-listen", $"127.0.0.1:{h2c}"]);
            }

            process = ChildProcess.Start("bash", arguments, new Dictionary<string, string>(), context.LoadCpus, log);
        }
        else
        {
            var dll = Path.Combine(options.PublishRoot, "LLRP.Downstream", "LLRP.Downstream.dll");
            if (!File.Exists(dll))
            {
                throw new InvalidOperationException($"the origin is not built: {dll} is missing");
            }

            List<string> arguments = origin.TlsPort is { } tls
                ? [dll, $"--urls=http://127.0.0.1:{origin.Port};https://127.0.0.1:{tls}", .. context.Certificate.KestrelArguments]
                : [dll, $"--urls=http://127.0.0.1:{origin.Port}"];
            if (origin.DelayMs > 0)
            {
                arguments.Add($"--delayMs={origin.DelayMs}");
            }

            if (origin.Http2Only)
            {
                arguments.Add("--Kestrel:EndpointDefaults:Protocols=Http2");
            }

            if (origin.MaxStreams > 0)
            {
                arguments.Add($"--http2MaxStreams={origin.MaxStreams}");
            }

            process = ChildProcess.Start("dotnet", arguments, new Dictionary<string, string> { ["DOTNET_gcServer"] = "0" }, context.LoadCpus, log);
        }

        var error = await Readiness.WaitAsync(context.Http, "http", origin.Port, process, TimeSpan.FromSeconds(30), cancellationToken, http2: origin.Http2Only);
        if (error is null && origin.TlsPort is { } tlsReady)
        {
            error = await Readiness.WaitAsync(context.Http, "https", tlsReady, process, TimeSpan.FromSeconds(30), cancellationToken);
        }

        if (error is null && origin.H2cPort is { } h2cReady)
        {
            error = await Readiness.WaitAsync(context.Http, "http", h2cReady, process, TimeSpan.FromSeconds(30), cancellationToken, http2: true);
        }

        if (error is not null)
        {
            await process.DisposeAsync();
            throw new InvalidOperationException($"{origin.Label} origin ({origin.Describe()}) did not start: {error}");
        }

        return process;
    }
}
