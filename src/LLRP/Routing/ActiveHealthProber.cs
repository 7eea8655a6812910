using System.Net;
using System.Net.Sockets;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.ProxyProtocol;
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
/// clusters are taken from the current table at each round, and a reload wakes the prober, so a reload's clusters are
/// probed from their first interval; with no cluster probing, the prober sleeps until a reload.
/// A destination of a cluster that sends the PROXY protocol refuses a connection without a header, so each probe
/// connection starts with the header of a sender's own connection (<see cref="ProxyHeaderWriter.LocalHeaderOf"/>: v2's
/// LOCAL command, v1's <c>PROXY UNKNOWN</c>, as HAProxy's health checks send them).
/// </summary>
internal sealed class ActiveHealthProber(ProxyOptions options, Router router, ILogger<ActiveHealthProber> logger) : BackgroundService
{
    private readonly HttpMessageInvoker _client = Client(insecure: options.DownstreamInsecure);
    private readonly HttpMessageInvoker _insecureClient = Client(insecure: true);
    private readonly Dictionary<Cluster, long> _due = [];

    /// <summary>The PROXY protocol version of a probe's destination, which <see cref="ConnectAsync"/> reads.</summary>
    private static readonly HttpRequestOptionsKey<ProxyProtocolVersion> ProxyProtocolOption = new("llrp.proxyProtocol");

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        while (!stoppingToken.IsCancellationRequested)
        {
            var replaced = router.Replaced;
            var now = Environment.TickCount64;
            var next = long.MaxValue;
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
            // Until the next probe is due, or a reload replaces the table (its clusters may probe otherwise); with no cluster
            // probing, until a reload. Stopping ends the loop.
            using var wake = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken, replaced);
            var delay = next == long.MaxValue ? Timeout.InfiniteTimeSpan : TimeSpan.FromMilliseconds(Math.Max(1, next - Environment.TickCount64));
            await Task.Delay(delay, wake.Token).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
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
        ConnectCallback = ConnectAsync,
    });

    /// <summary>Connects a probe's connection; the PROXY protocol header of a sender's own connection first when its destination takes one (before TLS).</summary>
    private static async ValueTask<Stream> ConnectAsync(SocketsHttpConnectionContext context, CancellationToken token)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(context.DnsEndPoint, token);
            if (context.InitialRequestMessage.Options.TryGetValue(ProxyProtocolOption, out var version))
            {
                await socket.SendAsync(ProxyHeaderWriter.LocalHeaderOf(version), SocketFlags.None, token);
            }

            return new NetworkStream(socket, ownsSocket: true);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

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
                if (destination.Endpoint.ProxyProtocol != ProxyProtocolVersion.None)
                {
                    request.Options.Set(ProxyProtocolOption, destination.Endpoint.ProxyProtocol);
                }

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

    /// <summary>
    /// A <c>tcp://</c> destination's probe: a connect within the timeout succeeds; the connection is closed at once, after
    /// the PROXY protocol header of a sender's own connection when its cluster sends one.
    /// </summary>
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
                if (destination.Endpoint.ProxyProtocol != ProxyProtocolVersion.None)
                {
                    await socket.SendAsync(ProxyHeaderWriter.LocalHeaderOf(destination.Endpoint.ProxyProtocol), SocketFlags.None, timeout.Token);
                }

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
