using System.Text;
using LLRP.Configuration;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.Hosting;

/// <summary>The effective configuration, printed once at start-up.</summary>
public static class StartupReport
{
    public static string Describe(WebApplication app)
    {
        var options = app.Services.GetRequiredService<ProxyOptions>();
        var text = new StringBuilder();
        text.Append("LLRP listening on ").Append(app.Configuration["urls"] ?? ProxyHost.DefaultUrls).AppendLine();
        text.Append("  mode: ").Append(options.Mode);
        if (options.Mode == ProxyMode.Raw)
        {
            text.Append(", upstream connections: ").Append(options.ConnectionStrategy);
        }
        else
        {
            text.Append(", shareClients: ").Append(options.ShareClients)
                .Append(", shareClients.roundRobin: ").Append(options.ShareClientsRoundRobin)
                .Append(", shareClients.count: ").Append(options.ShareClientsCount)
                .Append(", reuse request: ").Append(options.ReuseHttpRequestMessage);
        }

        text.AppendLine();
        text.Append("  downstream: ").AppendJoin("; ", options.Downstreams.Select(d => d.Uri));
        if (options.EmbeddedDownstream)
        {
            text.Append(" (bundled origin, in-process)");
        }

        text.AppendLine();
        text.Append("  host: ").Append(options.PreserveHost ? "preserved" : "rewritten")
            .Append(", forwarded headers: ").Append(options.ForwardedHeaders)
            .Append(", via: ").Append(options.AddVia)
            .Append(", connect timeout: ").Append(options.ConnectTimeout.TotalMilliseconds).Append(" ms")
            .Append(", response headers timeout: ").Append(options.ResponseHeadersTimeout.TotalMilliseconds).Append(" ms");
        return text.ToString();
    }
}
