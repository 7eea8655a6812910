using System.Net;
using LLRP.Bench.Processes;

namespace LLRP.Bench.Running;

/// <summary>
/// Waits until a server answers <c>GET /?s=10</c> with a 200 through its port (over TLS, any certificate, for https; over
/// HTTP/2 with prior knowledge when asked).
/// </summary>
public static class Readiness
{
    /// <summary>Null once it answers; otherwise why not (the process exited, or the time ran out).</summary>
    /// <param name="http">The client used for the probes; each probe closes its connection.</param>
    /// <param name="scheme"><c>http</c> or <c>https</c>.</param>
    /// <param name="port">The loopback port to probe.</param>
    /// <param name="process">The server's process, watched for an early exit; null for none.</param>
    /// <param name="timeout">How long to keep trying.</param>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <param name="http2">Probe over HTTP/2 only (h2c by prior knowledge for http), for a listener that speaks nothing else.</param>
    public static async Task<string?> WaitAsync(
        HttpClient http, string scheme, int port, ChildProcess? process, TimeSpan timeout, CancellationToken cancellationToken, bool http2 = false)
    {
        var deadline = DateTime.UtcNow + timeout;
        var last = "no answer";
        while (DateTime.UtcNow < deadline)
        {
            if (process is { HasExited: true })
            {
                await process.WaitForExitAsync(TimeSpan.FromSeconds(2));
                return $"exited at start with code {process.ExitCode}: {process.ExitReason}";
            }

            using var request = new HttpRequestMessage(HttpMethod.Get, $"{scheme}://127.0.0.1:{port}/?s=10");
            if (http2)
            {
                request.Version = HttpVersion.Version20;
                request.VersionPolicy = HttpVersionPolicy.RequestVersionExact;
            }
            else
            {
                request.Headers.ConnectionClose = true;
            }

            try
            {
                using var probe = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                probe.CancelAfter(TimeSpan.FromSeconds(2));
                using var response = await http.SendAsync(request, probe.Token);
                var body = await response.Content.ReadAsStringAsync(probe.Token);
                if ((int)response.StatusCode == 200 && body.Length == 10)
                {
                    return null;
                }

                last = $"answered {(int)response.StatusCode} with {body.Length} bytes";
            }
            catch (Exception e) when (e is HttpRequestException or OperationCanceledException && !cancellationToken.IsCancellationRequested)
            {
                last = e.Message;
            }

            await Task.Delay(100, cancellationToken);
        }

        return $"did not answer GET {scheme}://…/?s=10{(http2 ? " over HTTP/2" : "")} within {timeout.TotalSeconds:0} s ({last})";
    }
}
