using System.Globalization;
using System.Net;
using System.Security.Cryptography.X509Certificates;
using Microsoft.AspNetCore.Http;
using LLRP.Configuration.Routes;
using Microsoft.Extensions.Configuration;

namespace LLRP.Configuration;

/// <summary>Reads and validates <see cref="ProxyOptions"/>; throws <see cref="ProxyConfigurationException"/> on the first bad value.</summary>
public static class ProxyOptionsReader
{
    /// <summary>Where the bundled origin listens when no <c>downstream</c> is configured, unless <c>origin.urls</c> says otherwise.</summary>
    public const string EmbeddedDownstreamUrl = "http://127.0.0.1:8081";

    /// <summary>Where the proxy listens when <c>urls</c> is not configured: every interface, as the original LLRP.</summary>
    public const string DefaultUrls = "http://*:8080";

    /// <summary>Most destinations: a request's tried destinations are one bit each in a 64-bit mask.</summary>
    public const int MaxDestinations = 64;

    public static ProxyOptions Read(IConfiguration configuration)
    {
        var defaults = new ProxyOptions { Destinations = [], Routing = RoutingOptions.Unread };
        var (originUrl, origin) = ReadOriginUrl(configuration);
        var urls = ReadUrls(configuration);
        var balancing = ReadBalancing(configuration, defaults.Balancing);
        var configured = ReadDestinations(configuration, balancing);
        var reverseProxy = RoutingOptionsReader.IsConfigured(configuration);
        var embedded = configured is null && !reverseProxy;
        var destinations = configured ?? [new DestinationOptions(origin, 1)];
        var mode = ReadMode(configuration);
        var preserveHost = ReadBool(configuration, ConfigurationKeys.PreserveHost, defaults.PreserveHost);
        var options = new ProxyOptions
        {
            Urls = urls,
            Destinations = destinations,
            Balancing = balancing,
            PassiveHealthFailures = ReadInt(configuration, ConfigurationKeys.PassiveHealthFailures, defaults.PassiveHealthFailures, 0),
            PassiveHealthReactivation = ReadMilliseconds(configuration, ConfigurationKeys.PassiveHealthReactivationMs, defaults.PassiveHealthReactivation),
            ActiveHealthPath = ReadHealthPath(configuration),
            ActiveHealthInterval = ReadMilliseconds(configuration, ConfigurationKeys.ActiveHealthIntervalMs, defaults.ActiveHealthInterval),
            ActiveHealthTimeout = ReadMilliseconds(configuration, ConfigurationKeys.ActiveHealthTimeoutMs, defaults.ActiveHealthTimeout),
            ActiveHealthyThreshold = ReadInt(configuration, ConfigurationKeys.ActiveHealthyThreshold, defaults.ActiveHealthyThreshold, 1),
            ActiveUnhealthyThreshold = ReadInt(configuration, ConfigurationKeys.ActiveUnhealthyThreshold, defaults.ActiveUnhealthyThreshold, 1),
            MaxRetries = ReadInt(configuration, ConfigurationKeys.MaxRetries, defaults.MaxRetries, 0),
            RetryUnsentAnyMethod = ReadBool(configuration, ConfigurationKeys.RetryUnsentAnyMethod, defaults.RetryUnsentAnyMethod),
            MaxConnectionsPerDestination = ReadInt(configuration, ConfigurationKeys.MaxConnectionsPerDestination, defaults.MaxConnectionsPerDestination, 0),
            MaxQueuedPerDestination = ReadInt(configuration, ConfigurationKeys.MaxQueuedPerDestination, defaults.MaxQueuedPerDestination, 0),
            QueueTimeout = ReadMilliseconds(configuration, ConfigurationKeys.QueueTimeoutMs, defaults.QueueTimeout),
            MaxClientConnections = ReadInt(configuration, ConfigurationKeys.MaxClientConnections, defaults.MaxClientConnections, 0),
            AdminUrls = ReadAdminUrls(configuration),
            EmbeddedDownstream = embedded,
            OriginUrl = originUrl,
            Mode = mode,
            ConnectionStrategy = ReadStrategy(configuration, defaults.ConnectionStrategy),
            MaxIdleConnectionsPerDownstream = ReadInt(configuration, ConfigurationKeys.PoolMaxIdlePerDownstream, defaults.MaxIdleConnectionsPerDownstream, 0),
            PooledConnectionIdleTimeout = ReadMilliseconds(configuration, ConfigurationKeys.PoolIdleTimeoutMs, defaults.PooledConnectionIdleTimeout),
            PipelineDepth = ReadInt(configuration, ConfigurationKeys.PoolPipelineDepth, defaults.PipelineDepth, 1, ProxyOptions.MaxPipelineDepth),
            PreserveHost = preserveHost,
            ForwardedHeaders = ReadBool(configuration, ConfigurationKeys.ForwardedHeaders, defaults.ForwardedHeaders),
            AddVia = ReadBool(configuration, ConfigurationKeys.Via, defaults.AddVia),
            ConnectTimeout = ReadMilliseconds(configuration, ConfigurationKeys.ConnectTimeoutMs, defaults.ConnectTimeout),
            ResponseHeadersTimeout = ReadMilliseconds(configuration, ConfigurationKeys.ResponseHeadersTimeoutMs, defaults.ResponseHeadersTimeout),
            KeepAliveTimeout = ReadMilliseconds(configuration, ConfigurationKeys.KeepAliveTimeoutMs, defaults.KeepAliveTimeout),
            RequestHeadersTimeout = ReadMilliseconds(configuration, ConfigurationKeys.RequestHeadersTimeoutMs, defaults.RequestHeadersTimeout),
            TunnelIdleTimeout = ReadMilliseconds(configuration, ConfigurationKeys.TunnelIdleTimeoutMs, defaults.TunnelIdleTimeout),
            UpgradeProtocols = ReadUpgradeProtocols(configuration, defaults.UpgradeProtocols),
            MaxRequestLineSize = ReadInt(configuration, ConfigurationKeys.MaxRequestLineSize, defaults.MaxRequestLineSize, 64),
            MaxRequestHeadersTotalSize = ReadInt(configuration, ConfigurationKeys.MaxRequestHeadersTotalSize, defaults.MaxRequestHeadersTotalSize, 64),
            MaxRequestHeaderCount = ReadInt(configuration, ConfigurationKeys.MaxRequestHeaderCount, defaults.MaxRequestHeaderCount, 1),
            MaxRequestBodySize = ReadLong(configuration, ConfigurationKeys.MaxRequestBodySize, defaults.MaxRequestBodySize),
            MaxResponseHeadersTotalSize = ReadInt(configuration, ConfigurationKeys.MaxResponseHeadersTotalSize, defaults.MaxResponseHeadersTotalSize, 64),
            MaxChunkLineSize = ReadInt(configuration, ConfigurationKeys.MaxChunkLineSize, defaults.MaxChunkLineSize, 32),
            ShareClients = ReadBool(configuration, ConfigurationKeys.ShareClients, defaults.ShareClients),
            ShareClientsRoundRobin = ReadBool(configuration, ConfigurationKeys.ShareClientsRoundRobin, defaults.ShareClientsRoundRobin),
            ShareClientsCount = ReadInt(configuration, ConfigurationKeys.ShareClientsCount, defaults.ShareClientsCount, 1),
            ReuseHttpRequestMessage = ReadBool(configuration, ConfigurationKeys.ReuseRequest, defaults.ReuseHttpRequestMessage),
            ThreadCount = Value(configuration, ConfigurationKeys.ThreadCount) is null ? null : ReadInt(configuration, ConfigurationKeys.ThreadCount, 0, 1),
            InlineScheduling = ReadBool(configuration, ConfigurationKeys.InlineScheduling, defaults.InlineScheduling),
            InlineCompletions = ReadBool(configuration, ConfigurationKeys.InlineCompletions, defaults.InlineCompletions),
            Transport = ReadTransport(configuration, defaults.Transport),
            TcpSplice = ReadBool(configuration, ConfigurationKeys.TcpSplice, defaults.TcpSplice),
            TasksPooling = ReadBool(configuration, ConfigurationKeys.TasksPooling, defaults.TasksPooling),
            ShutdownTimeout = ReadMilliseconds(configuration, ConfigurationKeys.ShutdownTimeoutMs, defaults.ShutdownTimeout),
            CertificatePath = ReadPath(configuration, ConfigurationKeys.CertificatePath),
            CertificateKeyPath = ReadPath(configuration, ConfigurationKeys.CertificateKeyPath),
            HasCertificatePassword = Value(configuration, ConfigurationKeys.CertificatePassword) is not null,
            ServerCertificate = ReadServerCertificate(configuration, urls),
            DownstreamInsecure = ReadBool(configuration, ConfigurationKeys.DownstreamInsecure, defaults.DownstreamInsecure),
            AccessLog = ReadAccessLog(configuration),
            AccessLogFormat = ReadAccessLogFormat(configuration, defaults.AccessLogFormat),
            AccessLogBufferSize = ReadInt(configuration, ConfigurationKeys.AccessLogBufferSize, defaults.AccessLogBufferSize, 4096),
            Http2 = Http2SettingsReader.Read(configuration),
            Http2Server = ReadHttp2Server(configuration, defaults.Http2Server),
            Http2Client = ReadHttp2Client(configuration, defaults.Http2Client),
            AcceptProxyProtocol = ReadProxyProtocolAcceptance(configuration),
            Routing = RoutingOptions.Unread,
        };
        var routing = ReadReverseProxy(configuration, options, configured is not null) ?? RoutingOptionsReader.Implicit(destinations, options);
        options = options with { EnableMultipleHttp2Connections = routing.Clusters.FirstOrDefault(cluster => !cluster.IsTcp)?.EnableMultipleHttp2Connections ?? true };
        CheckPreserveHost(options, routing);
        CheckClusterSettings(options, routing);
        return options with { Routing = routing, Destinations = reverseProxy ? (routing.Clusters.FirstOrDefault(cluster => !cluster.IsTcp) ?? routing.Clusters[0]).Destinations : destinations };
    }

    /// <summary>
    /// The routing again, when the configuration reloads: the <c>ReverseProxy</c> section, or the implicit route of
    /// <c>downstream</c> (or the <c>destinations</c> section), with the top-level keys of <paramref name="options"/> (read
    /// at start-up, not reloaded) for what a cluster leaves out. The bundled origin stays the destination of a proxy that
    /// started with it while neither is configured. Throws <see cref="ProxyConfigurationException"/> as at start-up.
    /// </summary>
    public static RoutingOptions ReadRouting(IConfiguration configuration, ProxyOptions options)
    {
        var configured = ReadDestinations(configuration, options.Balancing);
        var destinations = configured ?? (options.EmbeddedDownstream ? options.Destinations : null);
        var routing = ReadReverseProxy(configuration, options, configured is not null)
            ?? (destinations is null
                ? throw new ProxyConfigurationException(ConfigurationKeys.Downstream, null, $"{ConfigurationKeys.Downstream}, a {ConfigurationKeys.DestinationsSection.Name} section or a {ConfigurationKeys.ReverseProxySection.Name} section")
                : RoutingOptionsReader.Implicit(destinations, options));
        CheckPreserveHost(options, routing);
        CheckClusterSettings(options, routing);
        return routing;
    }

    /// <summary>The <c>ReverseProxy</c> section's routing; null without one; refused beside <c>downstream</c> or the <c>destinations</c> section.</summary>
    private static RoutingOptions? ReadReverseProxy(IConfiguration configuration, ProxyOptions defaults, bool hasDestinations)
        => hasDestinations && RoutingOptionsReader.IsConfigured(configuration)
            ? throw new ProxyConfigurationException(ConfigurationKeys.ReverseProxySection.Name, "(a section)", $"either a {ConfigurationKeys.ReverseProxySection.Name} section or {ConfigurationKeys.Downstream} (or a {ConfigurationKeys.DestinationsSection.Name} section), not both")
            : RoutingOptionsReader.Read(configuration, defaults);

    /// <summary>
    /// A cluster setting that the chosen mode cannot apply per cluster is refused, naming its key, rather than silently run
    /// with the top-level value.
    /// </summary>
    private static void CheckClusterSettings(ProxyOptions options, RoutingOptions routing)
    {
        foreach (var cluster in routing.Clusters)
        {
            var key = $"{ConfigurationKeys.ReverseProxySection.Name}:{ConfigurationKeys.ReverseProxySection.Clusters}:{cluster.Id}";
            if (cluster.DangerousAcceptAnyServerCertificate != options.DownstreamInsecure && options.Mode != ProxyMode.Raw)
            {
                throw new ProxyConfigurationException($"{key}:HttpClient:DangerousAcceptAnyServerCertificate", cluster.DangerousAcceptAnyServerCertificate ? "true" : "false", $"the value of {ConfigurationKeys.DownstreamInsecure} in the modes over HttpClient, whose handlers share one certificate policy (raw mode takes one per cluster)");
            }

            if (!cluster.IsTcp && cluster.EnableMultipleHttp2Connections != options.EnableMultipleHttp2Connections)
            {
                throw new ProxyConfigurationException($"{key}:HttpClient:EnableMultipleHttp2Connections", cluster.EnableMultipleHttp2Connections ? "true" : "false", $"{(options.EnableMultipleHttp2Connections ? "true" : "false")}, as every other cluster and as at start-up: HTTP/2 requests go to destinations through one HttpClient handler for all clusters");
            }

            if (!cluster.IsTcp && cluster.ProxyProtocol != ProxyProtocolVersion.None && options.Mode != ProxyMode.Raw)
            {
                throw new ProxyConfigurationException($"{key}:Metadata:{ConfigurationKeys.ReverseProxySection.ProxyProtocol}", cluster.ProxyProtocol.ToString().ToLowerInvariant(), $"no PROXY protocol in the modes over HttpClient, whose handler shares its connections among clients while the header carries one client's address: {ConfigurationKeys.Mode}=raw sends it");
            }

            if (!cluster.IsTcp && cluster.ProxyProtocol != ProxyProtocolVersion.None && cluster.AsksHttp2)
            {
                throw new ProxyConfigurationException($"{key}:Metadata:{ConfigurationKeys.ReverseProxySection.ProxyProtocol}", cluster.ProxyProtocol.ToString().ToLowerInvariant(), $"no PROXY protocol with HttpRequest:Version {cluster.HttpVersion} and VersionPolicy {cluster.VersionPolicy}: raw mode sends the header on its own HTTP/1.1 connections, while HTTP/2 goes over HttpClient's shared ones; HttpRequest:Version 1.1 without RequestVersionOrHigher, or no {ConfigurationKeys.ReverseProxySection.ProxyProtocol}");
            }
        }
    }

    private static void CheckPreserveHost(ProxyOptions options, RoutingOptions routing)
    {
        var clientHost = options.PreserveHost || routing.Routes.Any(route => route.Transforms.OriginalHost == true);
        if (clientHost && options.Mode != ProxyMode.Raw && routing.Clusters.Any(cluster => cluster.Destinations.Any(destination => destination.Endpoint.IsTls)))
        {
            // SocketsHttpHandler takes the Host field for SNI, the certificate check and its pool's key: the client would choose them.
            throw new ProxyConfigurationException(ConfigurationKeys.PreserveHost, "true", "false with an https destination in the modes over HttpClient (their handler would check the destination's certificate against the client's Host)");
        }
    }

    /// <summary><c>urls</c>: <c>;</c>-separated addresses as Kestrel reads them, each <c>http://</c> or <c>https://</c> (or a Unix socket).</summary>
    private static string ReadUrls(IConfiguration configuration)
        => ReadListenAddresses(configuration, ConfigurationKeys.Urls, "http", "https") ?? DefaultUrls;

    /// <summary><c>admin.urls</c>: <c>;</c>-separated <c>http://host:port</c> addresses; null when not given.</summary>
    private static string? ReadAdminUrls(IConfiguration configuration)
        => ReadListenAddresses(configuration, ConfigurationKeys.AdminUrls, "http")?.Trim();

    /// <summary>The value of <paramref name="key"/>, <c>;</c>-separated addresses each with one of <paramref name="schemes"/>; null when not given.</summary>
    private static string? ReadListenAddresses(IConfiguration configuration, string key, params string[] schemes)
    {
        var value = Value(configuration, key);
        if (string.IsNullOrWhiteSpace(value))
        {
            return null;
        }

        return value.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).All(url => IsListenAddress(url, schemes))
            ? value
            : throw new ProxyConfigurationException(key, value, $"';'-separated {string.Join(" or ", schemes.Select(scheme => $"{scheme}://host:port"))} addresses");
    }

    /// <summary>
    /// A url Kestrel can bind: one of <paramref name="schemes"/>, a host that is a wildcard, a name or an address literal
    /// (Kestrel's parser takes <c>127.0.0.1:notaport</c> for a host on port 80), and a port from 0 to 65535; or a Unix socket.
    /// </summary>
    private static bool IsListenAddress(string url, string[] schemes)
    {
        BindingAddress address;
        try
        {
            address = BindingAddress.Parse(url);
        }
        catch (FormatException)
        {
            return false;
        }

        return schemes.Any(allowed => address.Scheme.Equals(allowed, StringComparison.OrdinalIgnoreCase))
            && (address.IsUnixPipe
                || ((address.Host is "*" or "+" || Uri.CheckHostName(address.Host) != UriHostNameType.Unknown)
                    && address.Port is >= IPEndPoint.MinPort and <= IPEndPoint.MaxPort));
    }

    /// <summary>The urls that are <c>https</c>: TLS terminated by the listener, with the certificate of <c>tls.certificatePath</c>.</summary>
    private static IEnumerable<string> HttpsUrls(string urls)
        => urls.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Where(url => url.StartsWith("https://", StringComparison.OrdinalIgnoreCase));

    /// <summary>
    /// <c>tls.certificatePath</c>, <c>tls.certificateKeyPath</c>, <c>tls.certificatePassword</c>: loaded whenever a path
    /// is given, so that a bad file fails start-up; required when any of <paramref name="urls"/> is https.
    /// </summary>
    private static X509Certificate2? ReadServerCertificate(IConfiguration configuration, string urls)
    {
        var path = ReadPath(configuration, ConfigurationKeys.CertificatePath);
        var keyPath = ReadPath(configuration, ConfigurationKeys.CertificateKeyPath);
        if (path is not null)
        {
            return ServerCertificateLoader.Load(path, keyPath, Value(configuration, ConfigurationKeys.CertificatePassword));
        }

        if (keyPath is not null)
        {
            throw new ProxyConfigurationException(ConfigurationKeys.CertificatePath, null, $"the PEM certificate that goes with {ConfigurationKeys.CertificateKeyPath}={keyPath}");
        }

        return HttpsUrls(urls).FirstOrDefault() is { } https
            ? throw new ProxyConfigurationException(ConfigurationKeys.CertificatePath, null, $"a PKCS#12 (.pfx) or PEM certificate file, required by {ConfigurationKeys.Urls}={https}")
            : null;
    }

    private static string? ReadPath(IConfiguration configuration, string key)
        => Value(configuration, key) is { } value && !string.IsNullOrWhiteSpace(value) ? value.Trim() : null;

    /// <summary>
    /// The destinations of <c>downstream</c> (<c>;</c>-separated base URIs, each optionally <c>|w=N</c>) or of the
    /// <c>destinations</c> section (<c>address</c>, <c>weight</c>); null when neither is given. Read at start-up and
    /// again when the configuration reloads.
    /// </summary>
    public static IReadOnlyList<DestinationOptions>? ReadDestinations(IConfiguration configuration, BalancingPolicy balancing)
    {
        var value = Value(configuration, ConfigurationKeys.Downstream);
        var section = configuration.GetSection(ConfigurationKeys.DestinationsSection.Name).GetChildren().ToList();
        if (!string.IsNullOrWhiteSpace(value) && section.Count > 0)
        {
            throw new ProxyConfigurationException(ConfigurationKeys.DestinationsSection.Name, $"{section.Count} entries", $"either {ConfigurationKeys.Downstream} or a {ConfigurationKeys.DestinationsSection.Name} section, not both");
        }

        var destinations = !string.IsNullOrWhiteSpace(value) ? ReadDownstream(value)
            : section.Count > 0 ? section.Select(ReadDestination).ToList()
            : null;
        if (destinations is null)
        {
            return null;
        }

        if (destinations.Count > MaxDestinations)
        {
            throw new ProxyConfigurationException(ConfigurationKeys.Downstream, $"{destinations.Count} destinations", $"at most {MaxDestinations} destinations");
        }

        if (balancing is BalancingPolicy.RoundRobin or BalancingPolicy.RoundRobinPerConnection or BalancingPolicy.Random or BalancingPolicy.FirstAlphabetical && destinations.FirstOrDefault(d => d.Weight != 1) is { } weighted)
        {
            throw new ProxyConfigurationException(ConfigurationKeys.Balancing, Name(balancing), $"weightedRoundRobin, leastRequests or powerOfTwoChoices, which use weights ({weighted.Endpoint} has weight {weighted.Weight})");
        }

        return destinations;
    }

    private static List<DestinationOptions> ReadDownstream(string value)
    {
        var destinations = new List<DestinationOptions>();
        foreach (var part in value.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var bar = part.IndexOf('|');
            var endpoint = DestinationEndpoint.TryParse(bar < 0 ? part : part[..bar]);
            var weight = bar < 0 ? 1 : ParseWeight(part[(bar + 1)..], "w=");
            if (endpoint is null || weight is null)
            {
                throw new ProxyConfigurationException(ConfigurationKeys.Downstream, value, $"';'-separated absolute http:// or https:// URIs without query or user info, each optionally followed by |w=N (N = 1..{DestinationOptions.MaxWeight})");
            }

            destinations.Add(new DestinationOptions(endpoint, weight.Value));
        }

        return destinations.Count > 0
            ? destinations
            : throw new ProxyConfigurationException(ConfigurationKeys.Downstream, value, "at least one http:// or https:// URI");
    }

    /// <summary>One entry of the <c>destinations</c> section: <c>address</c> (required) and <c>weight</c> (1 when absent).</summary>
    private static DestinationOptions ReadDestination(IConfigurationSection entry)
    {
        var address = entry[ConfigurationKeys.DestinationsSection.Address];
        var key = $"{ConfigurationKeys.DestinationsSection.Name}:{entry.Key}";
        var endpoint = address is null ? null : DestinationEndpoint.TryParse(address);
        if (endpoint is null)
        {
            throw new ProxyConfigurationException($"{key}:{ConfigurationKeys.DestinationsSection.Address}", address, "an absolute http:// or https:// URI without query or user info");
        }

        var weightValue = entry[ConfigurationKeys.DestinationsSection.Weight];
        var weight = weightValue is null ? 1 : ParseWeight(weightValue, "");
        return weight is { } valid
            ? new DestinationOptions(endpoint, valid)
            : throw new ProxyConfigurationException($"{key}:{ConfigurationKeys.DestinationsSection.Weight}", weightValue, $"an integer from 1 to {DestinationOptions.MaxWeight}");
    }

    private static int? ParseWeight(string value, string prefix)
        => value.StartsWith(prefix, StringComparison.Ordinal)
            && int.TryParse(value.AsSpan(prefix.Length), NumberStyles.None, CultureInfo.InvariantCulture, out var weight)
            && weight is >= 1 and <= DestinationOptions.MaxWeight
                ? weight
                : null;

    private static BalancingPolicy ReadBalancing(IConfiguration configuration, BalancingPolicy defaultValue)
    {
        var value = Value(configuration, ConfigurationKeys.Balancing);
        if (string.IsNullOrWhiteSpace(value))
        {
            return defaultValue;
        }

        foreach (var policy in Enum.GetValues<BalancingPolicy>())
        {
            if (Name(policy).Equals(value.Trim(), StringComparison.OrdinalIgnoreCase))
            {
                return policy;
            }
        }

        throw new ProxyConfigurationException(ConfigurationKeys.Balancing, value, string.Join(", ", Enum.GetValues<BalancingPolicy>().Select(Name)));
    }

    /// <summary>A policy as the <c>balancing</c> key names it: <c>roundRobinPerConnection</c>, <c>leastRequests</c>, ….</summary>
    public static string Name(BalancingPolicy policy)
    {
        var name = policy.ToString();
        return char.ToLowerInvariant(name[0]) + name[1..];
    }

    /// <summary><c>health.active.path</c>: an absolute path (with an optional query) probed on every destination; null when not given.</summary>
    private static string? ReadHealthPath(IConfiguration configuration)
    {
        var value = Value(configuration, ConfigurationKeys.ActiveHealthPath);
        if (string.IsNullOrWhiteSpace(value))
        {
            return null;
        }

        var path = value.Trim();
        return path.StartsWith('/') && !path.StartsWith("//", StringComparison.Ordinal) && Uri.IsWellFormedUriString(path, UriKind.Relative)
            ? path
            : throw new ProxyConfigurationException(ConfigurationKeys.ActiveHealthPath, value, "an absolute path such as /healthz");
    }

    /// <summary>
    /// <c>origin.urls</c>: one <c>http://host:port</c> for the bundled origin, and the downstream that reaches it; a
    /// wildcard host (<see cref="WildcardHosts"/>) listens on every interface and is reached over loopback.
    /// </summary>
    private static (string Url, DestinationEndpoint Downstream) ReadOriginUrl(IConfiguration configuration)
    {
        var value = Value(configuration, ConfigurationKeys.OriginUrls);
        var url = string.IsNullOrWhiteSpace(value) ? EmbeddedDownstreamUrl : value.Trim().TrimEnd('/');
        var downstream = url.Contains(';') ? null : DestinationEndpoint.TryParse(WildcardHosts.ToLoopback(url) ?? url);
        if (downstream is null || downstream.PathPrefix.Length != 0 || downstream.IsTls || downstream.Port == 0)
        {
            // Port 0 would have the origin listen on a port the proxy, whose destination this is, does not know.
            throw new ProxyConfigurationException(ConfigurationKeys.OriginUrls, value, "one http://host:port for the bundled origin, with a port other than 0, e.g. http://127.0.0.1:8081");
        }

        return (url, downstream);
    }

    private static ProxyMode ReadMode(IConfiguration configuration)
    {
        var flags = new List<ProxyMode>();
        if (ReadBool(configuration, ConfigurationKeys.HttpClientFlag, false))
        {
            flags.Add(ProxyMode.HttpClient);
        }

        if (ReadBool(configuration, ConfigurationKeys.HttpClientWithContextFlag, false))
        {
            flags.Add(ProxyMode.HttpClientWithContext);
        }

        if (ReadBool(configuration, ConfigurationKeys.YarpFlag, false))
        {
            flags.Add(ProxyMode.Yarp);
        }

        var modeValue = Value(configuration, ConfigurationKeys.Mode);
        ProxyMode? mode = modeValue?.Trim().ToLowerInvariant() switch
        {
            null or "" => null,
            "raw" or "llhttp" => ProxyMode.Raw,
            "httpclient" => ProxyMode.HttpClient,
            "httpclient-httpcontext" => ProxyMode.HttpClientWithContext,
            "yarp" => ProxyMode.Yarp,
            _ => throw new ProxyConfigurationException(ConfigurationKeys.Mode, modeValue, "raw, httpclient, httpclient-httpcontext, yarp"),
        };

        if (flags.Count > 1 || (mode is { } chosen && flags.Count == 1 && flags[0] != chosen))
        {
            throw new ProxyConfigurationException(ConfigurationKeys.Mode, modeValue ?? string.Join(",", flags), "one mode: 'mode' and the flags 'httpclient', 'httpclient-httpcontext', 'yarp' must not disagree");
        }

        return mode ?? (flags.Count == 1 ? flags[0] : ProxyMode.Raw);
    }

    /// <summary><c>stdout</c>, <c>stderr</c>, or the full path of a file whose directory exists; null for <c>off</c> or nothing.</summary>
    private static string? ReadAccessLog(IConfiguration configuration)
    {
        var value = Value(configuration, ConfigurationKeys.AccessLog)?.Trim();
        switch (value?.ToLowerInvariant())
        {
            case null or "" or "off":
                return null;
            case "stdout" or "stderr":
                return value.ToLowerInvariant();
        }

        var path = Path.GetFullPath(value);
        return Directory.Exists(Path.GetDirectoryName(path)) && !Directory.Exists(path)
            ? path
            : throw new ProxyConfigurationException(ConfigurationKeys.AccessLog, value, "stdout, stderr, off, or the path of a file in a directory that exists");
    }

    private static AccessLogFormat ReadAccessLogFormat(IConfiguration configuration, AccessLogFormat defaultValue)
    {
        var value = Value(configuration, ConfigurationKeys.AccessLogFormat);
        return value?.Trim().ToLowerInvariant() switch
        {
            null or "" => defaultValue,
            "combined" => AccessLogFormat.Combined,
            "json" => AccessLogFormat.Json,
            _ => throw new ProxyConfigurationException(ConfigurationKeys.AccessLogFormat, value, "combined, json"),
        };
    }

    private static UpstreamConnectionStrategy ReadStrategy(IConfiguration configuration, UpstreamConnectionStrategy defaultValue)
    {
        var value = Value(configuration, ConfigurationKeys.UpstreamConnections);
        return value?.Trim().ToLowerInvariant() switch
        {
            null or "" => defaultValue,
            "perclient" => UpstreamConnectionStrategy.PerClient,
            "pooled" => UpstreamConnectionStrategy.Pooled,
            _ => throw new ProxyConfigurationException(ConfigurationKeys.UpstreamConnections, value, "perClient, pooled"),
        };
    }

    private static TransportKind ReadTransport(IConfiguration configuration, TransportKind defaultValue)
    {
        var value = Value(configuration, ConfigurationKeys.Transport);
        return value?.Trim().ToLowerInvariant() switch
        {
            null or "" => defaultValue,
            "sockets" => TransportKind.Sockets,
            "epoll" => OperatingSystem.IsLinux()
                ? TransportKind.Epoll
                : throw new ProxyConfigurationException(ConfigurationKeys.Transport, value, "sockets (epoll runs on Linux only)"),
            _ => throw new ProxyConfigurationException(ConfigurationKeys.Transport, value, "sockets, epoll"),
        };
    }

    private static Http2ServerKind ReadHttp2Server(IConfiguration configuration, Http2ServerKind defaultValue)
    {
        var value = Value(configuration, ConfigurationKeys.Http2Server);
        return value?.Trim().ToLowerInvariant() switch
        {
            null or "" => defaultValue,
            "kestrel" => Http2ServerKind.Kestrel,
            "llrp" => Http2ServerKind.Llrp,
            _ => throw new ProxyConfigurationException(ConfigurationKeys.Http2Server, value, "kestrel, llrp"),
        };
    }

    private static Http2ClientKind ReadHttp2Client(IConfiguration configuration, Http2ClientKind defaultValue)
    {
        var value = Value(configuration, ConfigurationKeys.Http2Client);
        return value?.Trim().ToLowerInvariant() switch
        {
            null or "" => defaultValue,
            "httpclient" => Http2ClientKind.HttpClient,
            "llrp" => Http2ClientKind.Llrp,
            _ => throw new ProxyConfigurationException(ConfigurationKeys.Http2Client, value, "httpclient, llrp"),
        };
    }

    /// <summary>A <c>,</c>-separated list of protocol names (tokens, RFC 9110 §7.8), or <c>none</c>; never <c>h2c</c>.</summary>
    private static IReadOnlyList<string> ReadUpgradeProtocols(IConfiguration configuration, IReadOnlyList<string> defaultValue)
    {
        var value = Value(configuration, ConfigurationKeys.UpgradeProtocols);
        if (string.IsNullOrWhiteSpace(value))
        {
            return defaultValue;
        }

        if (value.Trim().Equals("none", StringComparison.OrdinalIgnoreCase))
        {
            return [];
        }

        var names = value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        foreach (var name in names)
        {
            if (!IsToken(name) || name.Equals("h2c", StringComparison.OrdinalIgnoreCase))
            {
                throw new ProxyConfigurationException(ConfigurationKeys.UpgradeProtocols, value, "protocol names (tokens, not h2c) separated by ',', or none");
            }
        }

        // A request's protocols are one bit each in a 64-bit mask (Http1.UpgradeProtocols).
        return names.Length is > 0 and <= 64 ? names : throw new ProxyConfigurationException(ConfigurationKeys.UpgradeProtocols, value, "1 to 64 protocol names separated by ',', or none");
    }

    private static bool IsToken(string value) => value.Length > 0 && value.All(c => char.IsAsciiLetterOrDigit(c) || "!#$%&'*+-.^_`|~".Contains(c));

    private static bool ReadBool(IConfiguration configuration, string key, bool defaultValue)
    {
        var value = Value(configuration, key);
        return value?.Trim().ToLowerInvariant() switch
        {
            null or "" => defaultValue,
            "1" or "true" => true,
            "0" or "false" => false,
            _ => throw new ProxyConfigurationException(key, value, "true, false, 1 or 0"),
        };
    }

    private static int ReadInt(IConfiguration configuration, string key, int defaultValue, int minimum, int maximum = int.MaxValue)
    {
        var value = Value(configuration, key);
        if (string.IsNullOrWhiteSpace(value))
        {
            return defaultValue;
        }

        return int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var result) && result >= minimum && result <= maximum
            ? result
            : throw new ProxyConfigurationException(key, value, maximum == int.MaxValue ? $"an integer >= {minimum}" : $"an integer from {minimum} to {maximum}");
    }

    private static long ReadLong(IConfiguration configuration, string key, long defaultValue)
    {
        var value = Value(configuration, key);
        if (string.IsNullOrWhiteSpace(value))
        {
            return defaultValue;
        }

        return long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var result)
            ? result
            : throw new ProxyConfigurationException(key, value, "an integer >= 0 (0 = unlimited)");
    }

    /// <summary>
    /// The value of <paramref name="key"/> as given (<c>timeouts.connectMs</c>), else in the form .NET's configuration gives
    /// a section path: <c>timeouts:connectMs</c>, which is what the environment's <c>timeouts__connectMs</c> and a nested
    /// <c>{"timeouts": {"connectMs": …}}</c> in appsettings.json become.
    /// </summary>
    private static string? Value(IConfiguration configuration, string key)
        => configuration[key] ?? (key.Contains('.') ? configuration[key.Replace('.', ':')] : null);

    private static TimeSpan ReadMilliseconds(IConfiguration configuration, string key, TimeSpan defaultValue)
        => TimeSpan.FromMilliseconds(ReadInt(configuration, key, (int)defaultValue.TotalMilliseconds, 1));

    /// <summary>
    /// <c>proxyProtocol.accept</c>, <c>proxyProtocol.trustedNetworks</c> (<c>;</c>-separated, required with accept, refused
    /// without), <c>proxyProtocol.timeoutMs</c>; null when the urls accept no PROXY protocol header.
    /// </summary>
    private static ProxyProtocolAcceptance? ReadProxyProtocolAcceptance(IConfiguration configuration)
    {
        var accept = ReadBool(configuration, ConfigurationKeys.AcceptProxyProtocol, false);
        var value = Value(configuration, ConfigurationKeys.ProxyProtocolTrustedNetworks);
        var networks = new List<IPNetwork>();
        foreach (var part in (value ?? "").Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            networks.Add(NetworkSyntax.Parse(part) ?? throw new ProxyConfigurationException(ConfigurationKeys.ProxyProtocolTrustedNetworks, value, $"';'-separated {NetworkSyntax.Allowed}"));
        }

        var timeout = ReadMilliseconds(configuration, ConfigurationKeys.ProxyProtocolTimeoutMs, ProxyProtocolAcceptance.DefaultTimeout);
        return (accept, networks.Count) switch
        {
            (true, 0) => throw new ProxyConfigurationException(ConfigurationKeys.ProxyProtocolTrustedNetworks, value, $"';'-separated {NetworkSyntax.Allowed}, at least one with {ConfigurationKeys.AcceptProxyProtocol}=true: only their connections may say where they come from"),
            (false, > 0) => throw new ProxyConfigurationException(ConfigurationKeys.ProxyProtocolTrustedNetworks, value, $"nothing without {ConfigurationKeys.AcceptProxyProtocol}=true"),
            (false, _) => null,
            _ => new ProxyProtocolAcceptance(networks, timeout),
        };
    }
}
