using System.Net;
using LLRP.Configuration;
using LLRP.Diagnostics;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace LLRP.Upstream.Destinations;

/// <summary>
/// Active health (<c>health.active.*</c>): every interval, each current destination gets <c>GET</c> of its base URI
/// followed by <c>health.active.path</c>, over a client of its own (not the proxy's connections); a response with a 2xx
/// or 3xx status within the timeout is a success, anything else a failure. The thresholds in
/// <see cref="DestinationHealth.ReportProbe"/> turn them into down and up again.
/// </summary>
internal sealed class ActiveHealthProber(ProxyOptions options, DestinationRegistry registry, ILogger<ActiveHealthProber> logger) : BackgroundService
{
    private readonly HttpMessageInvoker _client = new(new SocketsHttpHandler
    {
        UseProxy = false,
        AllowAutoRedirect = false,
        UseCookies = false,
        ConnectTimeout = options.ActiveHealthTimeout,
        PooledConnectionIdleTimeout = options.ActiveHealthInterval * 2,
        SslOptions = DownstreamTls.HandlerOptions(options.DownstreamInsecure),
    });

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(options.ActiveHealthInterval);
        do
        {
            await Task.WhenAll(registry.Current.Select(destination => ProbeAsync(destination, stoppingToken)));
        }
        while (await WaitAsync(timer, stoppingToken));
    }

    public override void Dispose()
    {
        _client.Dispose();
        base.Dispose();
    }

    private async Task ProbeAsync(Destination destination, CancellationToken stoppingToken)
    {
        string reason;
        using (var timeout = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken))
        {
            timeout.CancelAfter(options.ActiveHealthTimeout);
            try
            {
                using var request = new HttpRequestMessage(HttpMethod.Get, ProbeUri(destination.Endpoint))
                {
                    Version = HttpVersion.Version11,
                    VersionPolicy = HttpVersionPolicy.RequestVersionExact,
                };
                using var response = await _client.SendAsync(request, timeout.Token);
                var status = (int)response.StatusCode;
                reason = $"status {status}";
                if (status is >= 200 and < 400)
                {
                    Report(destination, success: true, reason);
                    return;
                }
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (OperationCanceledException)
            {
                reason = $"no response within {options.ActiveHealthTimeout.TotalMilliseconds} ms";
            }
            catch (HttpRequestException e)
            {
                reason = e.Message;
            }
        }

        Report(destination, success: false, reason);
    }

    private void Report(Destination destination, bool success, string reason)
    {
        if (!destination.Health.ReportProbe(success))
        {
            return;
        }

        if (success)
        {
            ProxyLog.DestinationProbedUp(logger, destination.Name, options.ActiveHealthyThreshold);
        }
        else
        {
            ProxyLog.DestinationProbedDown(logger, destination.Name, options.ActiveUnhealthyThreshold, reason);
        }
    }

    private Uri ProbeUri(DownstreamEndpoint endpoint)
        => new(endpoint.Origin + System.Text.Encoding.ASCII.GetString(endpoint.PathPrefix) + options.ActiveHealthPath);

    private static async ValueTask<bool> WaitAsync(PeriodicTimer timer, CancellationToken stoppingToken)
    {
        try
        {
            return await timer.WaitForNextTickAsync(stoppingToken);
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }
}
