using System.Globalization;
using System.Text;
using LLRP.Configuration;
using LLRP.Transport.Epoll;
using LLRP.Upstream.Sockets;
using LLRP.Configuration.Routes;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using K = LLRP.Configuration.ConfigurationKeys;

namespace LLRP.Hosting;

/// <summary>The effective configuration, every key with its value, and the addresses really bound: printed once at start-up.</summary>
public static class StartupReport
{
    /// <summary>Describes a started proxy.</summary>
    public static string Describe(WebApplication app)
    {
        var origin = app.Services.GetService<EmbeddedDownstreamService>()?.Addresses ?? [];
        var transportQueues = app.Services.GetService<EpollTransport>()?.LoopCount ?? app.Services.GetRequiredService<IOptions<SocketTransportOptions>>().Value.IOQueueCount;
        var listeners = app.Services.GetRequiredService<BoundListeners>();
        return Describe(app.Services.GetRequiredService<ProxyOptions>(), listeners.Proxy, listeners.Admin, origin, transportQueues);
    }

    /// <summary>A route's match in one line: path, hosts, methods, and how many header and query conditions.</summary>
    private static string RouteMatch(RouteMatchOptions match)
    {
        var parts = new List<string> { match.Path ?? "(any path)" };
        if (match.Hosts.Count > 0)
        {
            parts.Add("hosts " + string.Join(',', match.Hosts));
        }

        if (match.Methods.Count > 0)
        {
            parts.Add("methods " + string.Join(',', match.Methods));
        }

        if (match.Headers.Count > 0)
        {
            parts.Add($"{match.Headers.Count} header condition(s)");
        }

        if (match.QueryParameters.Count > 0)
        {
            parts.Add($"{match.QueryParameters.Count} query condition(s)");
        }

        return string.Join(", ", parts);
    }

    /// <param name="options">The effective configuration.</param>
    /// <param name="listening">The addresses the proxy listens on.</param>
    /// <param name="admin">The addresses the admin listener listens on (<c>admin.urls</c>).</param>
    /// <param name="origin">The addresses the bundled origin listens on, when it runs in-process.</param>
    /// <param name="transportQueues">The sockets transport's I/O queues (<c>IOQueueCount</c>), shown when <c>threadCount</c> is left to the default.</param>
    public static string Describe(ProxyOptions options, IReadOnlyCollection<string> listening, IReadOnlyCollection<string> admin, IReadOnlyCollection<string> origin, int transportQueues)
    {
        var text = new StringBuilder();
        text.Append("LLRP listening on ").AppendJoin(", ", listening)
            .Append(" (").Append(K.Urls).Append('=').Append(options.Urls);
        if (options.Urls.Split(';').Select(url => WildcardHosts.ToLoopback(url.Trim())).FirstOrDefault(url => url is not null) is { } loopback)
        {
            text.Append(": every interface; ").Append(K.Urls).Append('=').Append(loopback).Append(" for loopback only");
        }

        text.AppendLine(")");
        if (options.AdminUrls is not null)
        {
            text.Append("  admin (/metrics, /healthz) listening on ").AppendJoin(", ", admin)
                .Append(" (").Append(K.AdminUrls).Append('=').Append(options.AdminUrls).AppendLine(")");
        }

        text.Append("  ").Append(K.Downstream).Append('=').AppendJoin(';', options.Destinations.Select(d => d.Weight == 1 ? d.Endpoint.ToString() : $"{d.Endpoint}|w={d.Weight}"));
        if (options.EmbeddedDownstream)
        {
            text.Append(" (the bundled origin, in-process, listening on ").AppendJoin(", ", origin)
                .Append("; ").Append(K.OriginUrls).Append('=').Append(options.OriginUrl).Append(')');
        }

        text.AppendLine();
        if (options.Routing.Routes is not [{ Id: RoutingOptionsReader.ImplicitId }])
        {
            foreach (var route in options.Routing.Routes)
            {
                text.Append("  route ").Append(route.Id).Append(": ").Append(RouteMatch(route.Match))
                    .Append(" -> cluster ").Append(route.ClusterId).AppendLine();
            }

            foreach (var cluster in options.Routing.Clusters)
            {
                text.Append("  cluster ").Append(cluster.Id).Append(": ")
                    .AppendJoin(';', cluster.Destinations.Select(d => $"{d.Name}={d.Endpoint}{(d.Weight == 1 ? "" : $"|w={d.Weight}")}"))
                    .Append(", ").Append(ProxyOptionsReader.Name(cluster.Balancing))
                    .Append(", retries ").Append(cluster.MaxRetries)
                    .Append(", passive health ").Append(cluster.PassiveHealth.ConsecutiveFailures == 0 ? "off" : Number(cluster.PassiveHealth.ConsecutiveFailures))
                    .Append(", active health ").Append(cluster.ActiveHealth?.Path ?? "off")
                    .Append(cluster.Affinity is { } affinity ? $", affinity {affinity.Policy} {affinity.KeyName}" : "")
                    .Append(cluster.ProxyProtocol == ProxyProtocolVersion.None ? "" : $", PROXY protocol {cluster.ProxyProtocol.ToString().ToLowerInvariant()}")
                    .Append(cluster.HttpVersion.Major == 2 ? $", HTTP/2 to destinations {(cluster.EnableMultipleHttp2Connections ? "on several connections when one's streams are all in use" : "on one connection per destination (EnableMultipleHttp2Connections false)")}" : "")
                    .Append(options.Mode != ProxyMode.Raw || !cluster.AsksHttp2 ? ""
                        : ", HTTP/1.1 clients' requests over raw mode's HttpClient forwarder (its own HTTP/2 client, http2.client, carries HTTP/2 clients' streams only; an upgrade request stays on HTTP/1.1)")
                    .AppendLine();
            }

            foreach (var route in options.Routing.TcpRoutes)
            {
                text.Append("  tcp route ").Append(route.Id).Append(": listen ").Append(route.Listen)
                    .Append(" -> cluster ").Append(route.ClusterId)
                    .Append(", idle timeout ").Append(Milliseconds(route.IdleTimeout))
                    .Append(", connect timeout ").Append(Milliseconds(route.ConnectTimeout))
                    .Append(", max connections ").Append(Unlimited(route.MaxConnections))
                    .Append(", relay ").Append(TcpEndpoints.Spliced(options) ? $"splice on {Environment.ProcessorCount} event loops" : "copy")
                    .AppendLine();
            }
        }

        Line(text,
            (K.Mode, Mode(options.Mode)),
            (K.HttpClientFlag, Flag(options.Mode == ProxyMode.HttpClient)),
            (K.HttpClientWithContextFlag, Flag(options.Mode == ProxyMode.HttpClientWithContext)),
            (K.YarpFlag, Flag(options.Mode == ProxyMode.Yarp)));
        Line(text,
            (K.Balancing, ProxyOptionsReader.Name(options.Balancing)),
            (K.MaxRetries, Number(options.MaxRetries)),
            (K.RetryUnsentAnyMethod, Flag(options.RetryUnsentAnyMethod)),
            (K.PassiveHealthFailures, options.PassiveHealthFailures == 0 ? "0 (off)" : Number(options.PassiveHealthFailures)),
            (K.PassiveHealthReactivationMs, Milliseconds(options.PassiveHealthReactivation)));
        Line(text,
            (K.ActiveHealthPath, options.ActiveHealthPath ?? "(none: off)"),
            (K.ActiveHealthIntervalMs, Milliseconds(options.ActiveHealthInterval)),
            (K.ActiveHealthTimeoutMs, Milliseconds(options.ActiveHealthTimeout)),
            (K.ActiveHealthyThreshold, Number(options.ActiveHealthyThreshold)),
            (K.ActiveUnhealthyThreshold, Number(options.ActiveUnhealthyThreshold)));
        Line(text,
            (K.MaxConnectionsPerDestination, Unlimited(options.MaxConnectionsPerDestination)),
            (K.MaxQueuedPerDestination, Number(options.MaxQueuedPerDestination)),
            (K.QueueTimeoutMs, Milliseconds(options.QueueTimeout)),
            (K.MaxClientConnections, Unlimited(options.MaxClientConnections)),
            (K.AdminUrls, options.AdminUrls ?? "(none: off)"));
        Line(text,
            (K.UpstreamConnections, options.ConnectionStrategy == UpstreamConnectionStrategy.Pooled ? "pooled" : "perClient"),
            (K.PoolMaxIdlePerDownstream, Number(options.MaxIdleConnectionsPerDownstream)),
            (K.PoolIdleTimeoutMs, Milliseconds(options.PooledConnectionIdleTimeout)),
            (K.PoolPipelineDepth, PipelineDepth(options)));
        Line(text,
            (K.ShareClients, Flag(options.ShareClients)),
            (K.ShareClientsRoundRobin, Flag(options.ShareClientsRoundRobin)),
            (K.ShareClientsCount, Number(options.ShareClientsCount)),
            (K.ReuseRequest, Flag(options.ReuseHttpRequestMessage)));
        Line(text,
            (K.PreserveHost, Flag(options.PreserveHost)),
            (K.ForwardedHeaders, Flag(options.ForwardedHeaders)),
            (K.Via, Flag(options.AddVia)),
            (K.UpgradeProtocols, options.UpgradeProtocols.Count == 0 ? "none" : string.Join(',', options.UpgradeProtocols)));
        Line(text,
            (K.ConnectTimeoutMs, Milliseconds(options.ConnectTimeout)),
            (K.ResponseHeadersTimeoutMs, Milliseconds(options.ResponseHeadersTimeout)),
            (K.KeepAliveTimeoutMs, Milliseconds(options.KeepAliveTimeout)),
            (K.RequestHeadersTimeoutMs, Milliseconds(options.RequestHeadersTimeout)),
            (K.TunnelIdleTimeoutMs, Milliseconds(options.TunnelIdleTimeout)),
            (K.ShutdownTimeoutMs, Milliseconds(options.ShutdownTimeout)));
        Line(text,
            (K.MaxRequestLineSize, Number(options.MaxRequestLineSize)),
            (K.MaxRequestHeadersTotalSize, Number(options.MaxRequestHeadersTotalSize)),
            (K.MaxRequestHeaderCount, Number(options.MaxRequestHeaderCount)));
        Line(text,
            (K.MaxRequestBodySize, Unlimited(options.MaxRequestBodySize)),
            (K.MaxResponseHeadersTotalSize, Number(options.MaxResponseHeadersTotalSize)),
            (K.MaxChunkLineSize, Number(options.MaxChunkLineSize)));
        Line(text,
            (K.ThreadCount, options.ThreadCount is { } threads ? Number(threads) : $"default ({Number(transportQueues)})"),
            (K.InlineScheduling, Flag(options.InlineScheduling)),
            (K.InlineCompletions, Flag(options.InlineCompletions)),
            (K.TasksPooling, Flag(options.TasksPooling)),
            (K.Transport, options.Transport == TransportKind.Epoll ? "epoll" : "sockets"),
            (K.TcpSplice, Flag(options.TcpSplice)));
        Line(text,
            (K.AccessLog, options.AccessLog ?? "off"),
            (K.AccessLogFormat, options.AccessLogFormat == AccessLogFormat.Json ? "json" : "combined"),
            (K.AccessLogBufferSize, Number(options.AccessLogBufferSize)));
        Http2(text, options.Http2, PooledStreamExchange.Serves(options));
        Line(text, (K.Http2Server, options.Http2Server == Http2ServerKind.Llrp ? "llrp" : "kestrel"));
        Line(text, (K.Http2Client, options.Http2Client == Http2ClientKind.Llrp && options.Mode == ProxyMode.Raw ? "llrp" : "httpclient"));
        Tls(text, options);
        AcceptedProxyProtocol(text, options.AcceptProxyProtocol);
        return text.ToString().TrimEnd();
    }

    /// <summary>
    /// The HTTP/2 front end: h2c (prior knowledge) and ALPN h2 on every proxy url, forwarded over HttpClient
    /// (SocketsHttpHandler, several HTTP/2 connections per destination), in raw mode with pooled connections over raw
    /// mode's own pooled connections to HTTP/1.1 clusters, and its limits.
    /// </summary>
    private static void Http2(StringBuilder text, Http2Settings http2, bool ownPool)
    {
        text.AppendLine(ownPool
            ? "  http2=on (h2c by prior knowledge on http urls, ALPN h2 on https urls; to HTTP/1.1 clusters over raw mode's pooled connections; to HTTP/2 clusters over http2.client's; otherwise over HttpClient)"
            : "  http2=on (h2c by prior knowledge on http urls, ALPN h2 on https urls; forwarded over HttpClient, in raw mode to clusters sending the PROXY protocol over a connection of each stream's own)");
        Line(text,
            (K.Http2MaxConcurrentStreams, Number(http2.MaxConcurrentStreams)),
            (K.Http2MaxHeaderFieldSize, Number(http2.MaxHeaderFieldSize)),
            (K.Http2MaxFrameSize, Number(http2.MaxFrameSize)),
            (K.Http2InitialConnectionWindowSize, Number(http2.InitialConnectionWindowSize)),
            (K.Http2InitialStreamWindowSize, Number(http2.InitialStreamWindowSize)));
    }

    /// <summary>The certificate of the https urls (never its password), and a warning when destination certificates go unchecked.</summary>
    private static void Tls(StringBuilder text, ProxyOptions options)
    {
        var certificate = options.ServerCertificate is { } loaded
            ? string.Create(CultureInfo.InvariantCulture, $"{options.CertificatePath} (subject {loaded.Subject}, thumbprint {loaded.Thumbprint}, expires {loaded.NotAfter.ToUniversalTime():yyyy-MM-dd HH:mm:ss}Z)")
            : "(none)";
        Line(text,
            (K.CertificatePath, certificate),
            (K.CertificateKeyPath, options.CertificateKeyPath ?? "(none)"),
            (K.CertificatePassword, options.HasCertificatePassword ? "(set)" : "(none)"),
            (K.DownstreamInsecure, Flag(options.DownstreamInsecure)));
        if (options.DownstreamInsecure)
        {
            text.Append("  WARNING: ").Append(K.DownstreamInsecure)
                .AppendLine("=true: the certificates of https destinations are not validated; anyone on the path can read and change the traffic. For test origins only.");
        }
    }

    private static void Line(StringBuilder text, params (string Key, string Value)[] settings)
    {
        text.Append(' ');
        foreach (var (key, value) in settings)
        {
            text.Append(' ').Append(key).Append('=').Append(value);
        }

        text.AppendLine();
    }

    private static string Mode(ProxyMode mode) => mode switch
    {
        ProxyMode.HttpClient => "httpclient",
        ProxyMode.HttpClientWithContext => "httpclient-httpcontext",
        ProxyMode.Yarp => "yarp",
        _ => "raw",
    };

    private static string Flag(bool value) => value ? "true" : "false";

    private static string Number(long value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>The depth, and what it still needs when the configuration leaves it without effect.</summary>
    private static string PipelineDepth(ProxyOptions options)
        => options.PipelineDepth == 1 || (PooledStreamExchange.Serves(options) && options.Transport == TransportKind.Epoll && options.Http2Server == Http2ServerKind.Llrp)
            ? Number(options.PipelineDepth)
            : $"{Number(options.PipelineDepth)} (no effect: it needs mode=raw, upstreamConnections=pooled, transport=epoll and http2.server=llrp)";

    private static string Unlimited(long value) => value == 0 ? "0 (unlimited)" : Number(value);

    private static string Milliseconds(TimeSpan value) => Number((long)value.TotalMilliseconds);

    /// <summary>Keys <c>proxyProtocol.*</c>: whether the urls read a PROXY protocol header first, from which networks, within how long.</summary>
    private static void AcceptedProxyProtocol(StringBuilder text, ProxyProtocolAcceptance? acceptance)
        => Line(text,
            (K.AcceptProxyProtocol, Flag(acceptance is not null)),
            (K.ProxyProtocolTrustedNetworks, acceptance is null ? "(none)" : string.Join(';', acceptance.TrustedNetworks)),
            (K.ProxyProtocolTimeoutMs, Milliseconds(acceptance?.Timeout ?? ProxyProtocolAcceptance.DefaultTimeout)));
}
