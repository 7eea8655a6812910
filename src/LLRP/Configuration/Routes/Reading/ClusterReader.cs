using Microsoft.Extensions.Configuration;
using ReverseProxyKeys = LLRP.Configuration.ConfigurationKeys.ReverseProxySection;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>
/// One cluster of <c>ReverseProxy:Clusters</c> (YARP's <c>ClusterConfig</c>); its id is its key. What it leaves out comes
/// from the top-level keys (<see cref="ClusterOptions"/>).
/// </summary>
internal static class ClusterReader
{
    private static readonly string[] Keys = ["Destinations", "LoadBalancingPolicy", "SessionAffinity", "HealthCheck", "HttpClient", "HttpRequest", "Metadata"];
    private static readonly string[] MetadataKeys = [ReverseProxyKeys.Retries, ReverseProxyKeys.MaxQueued, ReverseProxyKeys.QueueTimeout, ReverseProxyKeys.PassiveFailures, ReverseProxyKeys.ActiveHealthy, ReverseProxyKeys.ProxyProtocol];

    private static readonly Dictionary<string, string> UnsupportedHttpClient = new(StringComparer.OrdinalIgnoreCase)
    {
        ["SslProtocols"] = "TLS versions are the system's",
        ["RequestHeaderEncoding"] = "header values are ASCII",
        ["ResponseHeaderEncoding"] = "header values are ASCII",
        ["WebProxy"] = "destinations are reached directly",
    };

    private static readonly Dictionary<string, string> UnsupportedHttpRequest = new(StringComparer.OrdinalIgnoreCase)
    {
        ["AllowResponseBuffering"] = "responses are streamed",
    };

    public static ClusterOptions Read(IConfigurationSection cluster, ProxyOptions defaults)
    {
        SectionValue.Children(cluster, "a cluster: a section with Destinations");
        SectionKeys.Check(cluster, Keys);
        var metadata = MetadataSection.Check(cluster.GetSection("Metadata"), MetadataKeys);
        var balancingSection = cluster.GetSection("LoadBalancingPolicy");
        var balancing = SectionValue.Enum<BalancingPolicy>(balancingSection) ?? defaults.Balancing;
        var destinations = DestinationReader.Read(cluster.GetSection("Destinations"), balancing, balancingSection);
        var (passive, active, available) = HealthCheckReader.Read(cluster.GetSection("HealthCheck"), metadata, defaults);
        var affinitySection = cluster.GetSection("SessionAffinity");
        var affinity = SessionAffinityReader.Read(affinitySection);
        if (affinity is not null && destinations[0].Endpoint.IsTcp)
        {
            throw SectionValue.Error(affinitySection, "no SessionAffinity in a cluster of tcp:// destinations: its connections carry no cookie or header to be bound by");
        }

        var (maxConnections, acceptAnyCertificate, multipleHttp2Connections) = ReadHttpClient(cluster.GetSection("HttpClient"), defaults);
        var (activityTimeout, version, versionPolicy) = ReadHttpRequest(cluster.GetSection("HttpRequest"));
        var responseHeadersTimeout = activityTimeout ?? defaults.ResponseHeadersTimeout;
        var queueTimeoutMs = SectionValue.Int(metadata.GetSection(ReverseProxyKeys.QueueTimeout), 1);
        return new ClusterOptions(
            cluster.Key,
            destinations,
            balancing,
            passive,
            active,
            available,
            affinity,
            SectionValue.Int(metadata.GetSection(ReverseProxyKeys.Retries), 0) ?? defaults.MaxRetries,
            maxConnections,
            SectionValue.Int(metadata.GetSection(ReverseProxyKeys.MaxQueued), 0) ?? defaults.MaxQueuedPerDestination,
            queueTimeoutMs is { } ms ? TimeSpan.FromMilliseconds(ms) : defaults.QueueTimeout,
            responseHeadersTimeout,
            acceptAnyCertificate)
        {
            HttpVersion = version,
            VersionPolicy = versionPolicy,
            EnableMultipleHttp2Connections = multipleHttp2Connections,
            ProxyProtocol = ReadProxyProtocol(metadata.GetSection(ReverseProxyKeys.ProxyProtocol)),
        };
    }

    private static ProxyProtocolVersion ReadProxyProtocol(IConfigurationSection section)
        => SectionValue.OneOf(section, "v1", "v2") switch
        {
            0 => ProxyProtocolVersion.V1,
            1 => ProxyProtocolVersion.V2,
            _ => ProxyProtocolVersion.None,
        };

    /// <summary>
    /// <c>MaxConnectionsPerServer</c>, <c>DangerousAcceptAnyServerCertificate</c> and <c>EnableMultipleHttp2Connections</c>
    /// (YARP's meaning and default, true: a destination's HTTP/2 connection that has as many streams open as the destination
    /// allows is joined by another, instead of the request waiting for a stream; seed 002).
    /// </summary>
    private static (int MaxConnections, bool AcceptAnyCertificate, bool MultipleHttp2Connections) ReadHttpClient(IConfigurationSection httpClient, ProxyOptions defaults)
    {
        SectionValue.Children(httpClient, "a section with DangerousAcceptAnyServerCertificate, EnableMultipleHttp2Connections, MaxConnectionsPerServer");
        SectionKeys.Check(httpClient, ["DangerousAcceptAnyServerCertificate", "EnableMultipleHttp2Connections", "MaxConnectionsPerServer"], UnsupportedHttpClient);
        return (
            SectionValue.Int(httpClient.GetSection("MaxConnectionsPerServer"), 1) ?? defaults.MaxConnectionsPerDestination,
            SectionValue.Bool(httpClient.GetSection("DangerousAcceptAnyServerCertificate")) ?? defaults.DownstreamInsecure,
            SectionValue.Bool(httpClient.GetSection("EnableMultipleHttp2Connections")) ?? true);
    }

    /// <summary>
    /// <c>ActivityTimeout</c>, the response head's timeout; <c>Version</c> <c>1.1</c> or <c>2</c> (<c>2.0</c>), and
    /// <c>VersionPolicy</c> with YARP's meanings. Unset, the version is 1.1 (YARP's 2.0 with fall-back becomes HTTP/1.1):
    /// HTTP/2 to a destination is asked for, by ALPN over TLS and by prior knowledge (h2c) with <c>RequestVersionExact</c>.
    /// </summary>
    private static (TimeSpan? ActivityTimeout, Version Version, HttpVersionPolicy Policy) ReadHttpRequest(IConfigurationSection httpRequest)
    {
        SectionValue.Children(httpRequest, "a section with ActivityTimeout, Version, VersionPolicy");
        SectionKeys.Check(httpRequest, ["ActivityTimeout", "Version", "VersionPolicy"], UnsupportedHttpRequest);
        var versionSection = httpRequest.GetSection("Version");
        var version = SectionValue.String(versionSection)?.Trim() switch
        {
            null or "1.1" => System.Net.HttpVersion.Version11,
            "2" or "2.0" => System.Net.HttpVersion.Version20,
            _ => throw SectionValue.Error(versionSection, "1.1, or 2 (2.0): HTTP/1.0 and HTTP/3 to destinations are not supported by LLRP"),
        };
        var policy = SectionValue.OneOf(httpRequest.GetSection("VersionPolicy"), "RequestVersionOrLower", "RequestVersionExact", "RequestVersionOrHigher") switch
        {
            1 => HttpVersionPolicy.RequestVersionExact,
            2 => HttpVersionPolicy.RequestVersionOrHigher,
            _ => HttpVersionPolicy.RequestVersionOrLower,
        };
        return (SectionValue.Duration(httpRequest.GetSection("ActivityTimeout")), version, policy);
    }
}
