using System.Net;
using System.Net.Sockets;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Routing.Destinations;
using LLRP.Upstream;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace LLRP.Routing;

/// <summary>
/// Active health of the clusters that have it (<c>health.active.*</c>, or a cluster's <c>HealthCheck:Active</c>): every
/// interval of its cluster, each destination gets <c>GET</c> of its base URI followed by the probe path, over a client of
/// its own (not the proxy's connections); a response with a 2xx or 3xx status within the timeout is a success, anything
/// else a failure. The thresholds in <see cref="DestinationHealth.ReportProbe"/> turn them into down and up again. The
/// clusters are taken from the current table at each round, so a reload's clusters are probed from their first interval.
/// </summary>
internal sealed class ActiveHealthProber(ProxyOptions options, Router router, ILogger<ActiveHealthProber> logger) : BackgroundService
{
    /// <summary>The longest sleep between two looks at the table when no probe is due sooner.</summary>
    private static readonly TimeSpan Idle = TimeSpan.FromSeconds(1);

    private readonly HttpMessageInvoker _client = Client(insecure: options.DownstreamInsecure);
    private readonly HttpMessageInvoker _insecureClient = Client(insecure: true);
    private readonly Dictionary<Cluster, long> _due = [];

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        while (!stoppingToken.IsCancellationRequested)
        {
            var now = Environment.TickCount64;
            var next = now + (long)Idle.TotalMilliseconds;
            var probes = new List<Task>();
            var clusters = router.Current.Clusters;
            foreach (var stale in _due.Keys.Where(cluster => !clusters.Contains(cluster)).ToList())
            {
                _due.Remove(stale);
            }

            foreach (var cluster in clusters)
            {
                if (cluster.Options.ActiveHealth is not { } active)
                {
                    continue;
                }

                var due = _due.GetValueOrDefault(cluster, now);
                if (due <= now)
                {
                    probes.AddRange(cluster.Destinations.Current.Select(destination => ProbeAsync(cluster.Options, active, destination, stoppingToken)));
                    due = now + (long)active.Interval.TotalMilliseconds;
                    _due[cluster] = due;
                }

                next = Math.Min(next, due);
            }

            await Task.WhenAll(probes);
            try
            {
                await Task.Delay(TimeSpan.FromMilliseconds(Math.Max(1, next - Environment.TickCount64)), stoppingToken);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    public override void Dispose()
    {
        _client.Dispose();
        _insecureClient.Dispose();
        base.Dispose();
    }

    private static HttpMessageInvoker Client(bool insecure) => new(new SocketsHttpHandler
    {
        UseProxy = false,
        AllowAutoRedirect = false,
        UseCookies = false,
        PooledConnectionIdleTimeout = TimeSpan.FromMinutes(1),
        SslOptions = DestinationTls.HandlerOptions(insecure),
    });

    private async Task ProbeAsync(ClusterOptions cluster, ActiveHealthOptions active, Destination destination, CancellationToken stoppingToken)
    {
        if (destination.Endpoint.IsTcp)
        {
            await ProbeConnectAsync(active, destination, stoppingToken);
            return;
        }

        string reason;
        using (var timeout = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken))
        {
            timeout.CancelAfter(active.Timeout);
            try
            {
                using var request = new HttpRequestMessage(HttpMethod.Get, ProbeUri(destination.Endpoint, active.Path))
                {
                    Version = HttpVersion.Version11,
                    VersionPolicy = HttpVersionPolicy.RequestVersionExact,
                };
                var client = cluster.DangerousAcceptAnyServerCertificate ? _insecureClient : _client;
                using var response = await client.SendAsync(request, timeout.Token);
                var status = (int)response.StatusCode;
                reason = $"status {status}";
                if (status is >= 200 and < 400)
                {
                    Report(active, destination, success: true, reason);
                    return;
                }
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (OperationCanceledException)
            {
                reason = $"no response within {active.Timeout.TotalMilliseconds} ms";
            }
            catch (HttpRequestException e)
            {
                reason = e.Message;
            }
        }

        Report(active, destination, success: false, reason);
    }

    /// <summary>A <c>tcp://</c> destination's probe: a connect within the timeout succeeds; the connection is closed at once.</summary>
    private async Task ProbeConnectAsync(ActiveHealthOptions active, Destination destination, CancellationToken stoppingToken)
    {
        string reason;
        using (var timeout = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken))
        using (var socket = new Socket(SocketType.Stream, ProtocolType.Tcp))
        {
            timeout.CancelAfter(active.Timeout);
            try
            {
                await socket.ConnectAsync(destination.Endpoint.EndPoint, timeout.Token);
                Report(active, destination, success: true, "connected");
                return;
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (OperationCanceledException)
            {
                reason = $"no connection within {active.Timeout.TotalMilliseconds} ms";
            }
            catch (SocketException e)
            {
                reason = e.Message;
            }
        }

        Report(active, destination, success: false, reason);
    }

    private void Report(ActiveHealthOptions active, Destination destination, bool success, string reason)
    {
        if (!destination.Health.ReportProbe(success))
        {
            return;
        }

        if (success)
        {
            ProxyLog.DestinationProbedUp(logger, destination.Name, active.HealthyThreshold);
        }
        else
        {
            ProxyLog.DestinationProbedDown(logger, destination.Name, active.UnhealthyThreshold, reason);
        }
    }

    private static Uri ProbeUri(DestinationEndpoint endpoint, string path)
        => new(endpoint.Origin + System.Text.Encoding.ASCII.GetString(endpoint.PathPrefix) + path);
}
