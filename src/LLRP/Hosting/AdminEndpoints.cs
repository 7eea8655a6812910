using LLRP.Diagnostics;
using LLRP.Routing;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using OpenTelemetry.Metrics;

namespace LLRP.Hosting;

/// <summary>
/// The admin listener (<c>admin.urls</c>, off by default): its own Kestrel endpoints with ASP.NET Core's HTTP/1.1
/// pipeline, apart from the proxy's (whose connections never reach that pipeline), serving
/// - <c>GET /metrics</c>: the <c>LLRP</c> meter in Prometheus text format, by OpenTelemetry's exporter (which aggregates
///   measurements without allocating; nothing listens to the meter, and it costs nothing, without the admin listener);
/// - <c>GET /healthz</c>: 200 <c>healthy</c> while at least one destination takes requests, else 503 <c>unhealthy</c>.
/// </summary>
internal static class AdminEndpoints
{
    public const string MetricsPath = "/metrics";
    public const string HealthPath = "/healthz";

    public static void AddServices(IServiceCollection services)
        => services.AddOpenTelemetry().WithMetrics(metrics => metrics.AddMeter(ProxyMetrics.MeterName).AddPrometheusExporter());

    public static void Listen(KestrelServerOptions kestrel, string adminUrls, BoundListeners listeners)
        => ProxyEndpoints.Bind(kestrel, adminUrls, (url, listen) =>
        {
            listeners.AddAdmin(url, listen);
            listen.Protocols = HttpProtocols.Http1;
        });

    public static void Map(WebApplication app)
    {
        app.MapPrometheusScrapingEndpoint(MetricsPath);
        app.MapGet(HealthPath, (Router router) => router.AnyAvailable(Environment.TickCount64)
            ? Results.Text("healthy\n")
            : Results.Text("unhealthy\n", statusCode: StatusCodes.Status503ServiceUnavailable));
    }
}
