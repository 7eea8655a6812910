namespace LLRP.Configuration.Routes;

/// <summary>
/// One cluster of the <c>ReverseProxy:Clusters</c> section (YARP's <c>ClusterConfig</c>), or the implicit cluster of
/// <c>downstream</c>: its destinations and how a request's destination is chosen among them. What the section leaves
/// out comes from the top-level keys (<c>balancing</c>, <c>health.*</c>, <c>retries.max</c>, <c>limits.*PerDestination</c>).
/// </summary>
/// <param name="Id">The cluster's key in the section, as logs and metrics name it.</param>
/// <param name="Destinations">At least one, at most <see cref="ProxyOptionsReader.MaxDestinations"/>.</param>
/// <param name="Balancing">How a destination is chosen (<c>LoadBalancingPolicy</c>).</param>
/// <param name="PassiveHealth">Ejection after transport failures (<c>HealthCheck:Passive</c>).</param>
/// <param name="ActiveHealth">Probes (<c>HealthCheck:Active</c>); null when off.</param>
/// <param name="AvailableDestinations">Which destinations take requests (<c>HealthCheck:AvailableDestinationsPolicy</c>).</param>
/// <param name="Affinity">Session affinity (<c>SessionAffinity</c>); null when off.</param>
/// <param name="MaxRetries">Other destinations an unanswered request may go to (<c>Metadata:Llrp.Retries</c>, else <c>retries.max</c>).</param>
/// <param name="MaxRequestsPerDestination">
/// Most requests in flight to one destination, each on its own upstream connection (<c>HttpClient:MaxConnectionsPerServer</c>,
/// else <c>limits.maxConnectionsPerDestination</c>); 0 = unlimited.
/// </param>
/// <param name="MaxQueuedPerDestination">Requests that may wait for a slot (<c>Metadata:Llrp.MaxQueuedPerDestination</c>, else <c>limits.maxQueuedPerDestination</c>).</param>
/// <param name="QueueTimeout">How long a request may wait for a slot (<c>Metadata:Llrp.QueueTimeoutMs</c>, else <c>limits.queueTimeoutMs</c>).</param>
/// <param name="ResponseHeadersTimeout">From the request sent to the response head (<c>HttpRequest:ActivityTimeout</c>, else <c>timeouts.responseHeadersMs</c>).</param>
/// <param name="DangerousAcceptAnyServerCertificate">Any certificate of an <c>https</c> destination is accepted (<c>HttpClient:DangerousAcceptAnyServerCertificate</c>, else <c>tls.downstreamInsecure</c>).</param>
public sealed record ClusterOptions(
    string Id,
    IReadOnlyList<DestinationOptions> Destinations,
    BalancingPolicy Balancing,
    PassiveHealthOptions PassiveHealth,
    ActiveHealthOptions? ActiveHealth,
    AvailableDestinationsPolicy AvailableDestinations,
    SessionAffinityOptions? Affinity,
    int MaxRetries,
    int MaxRequestsPerDestination,
    int MaxQueuedPerDestination,
    TimeSpan QueueTimeout,
    TimeSpan ResponseHeadersTimeout,
    bool DangerousAcceptAnyServerCertificate)
{
    /// <summary>
    /// The HTTP version asked of its destinations (<c>HttpRequest:Version</c>): 1.1 unless set. HTTP/2 clients' requests
    /// are sent with it in every mode, and so are HTTP/1.1 clients' requests (in raw mode over its HttpClient forwarder when
    /// the cluster <see cref="AsksHttp2"/>, which one sending the PROXY protocol may not), an upgrade request excepted (HTTP/1.1 exactly).
    /// </summary>
    public Version HttpVersion { get; init; } = System.Net.HttpVersion.Version11;

    /// <summary>How strictly <see cref="HttpVersion"/> is asked (<c>HttpRequest:VersionPolicy</c>, YARP's meanings).</summary>
    public HttpVersionPolicy VersionPolicy { get; init; } = HttpVersionPolicy.RequestVersionOrLower;

    /// <summary>
    /// HTTP/2 may be asked of its destinations (YARP's meanings): <see cref="HttpVersion"/> 2 with any policy (over TLS by
    /// ALPN; over plain TCP by prior knowledge, or HTTP/1.1 under <c>RequestVersionOrLower</c>, as HttpClient does), or 1.1
    /// with <c>RequestVersionOrHigher</c>. Raw mode's own HTTP/1.1 client then leaves its requests to HttpClient.
    /// </summary>
    public bool AsksHttp2 => HttpVersion.Major >= 2 || VersionPolicy == HttpVersionPolicy.RequestVersionOrHigher;

    /// <summary>
    /// How HTTP/2 is asked of a destination when <see cref="HttpVersion"/> is 2, as HttpClient asks it (YARP's meanings): over
    /// TLS by ALPN, <c>http/1.1</c> offered after <c>h2</c> under <c>RequestVersionOrLower</c> (RFC 9113 §3.2); over plain TCP
    /// by prior knowledge (§3.3), except under <c>RequestVersionOrLower</c>, which asks HTTP/1.1 there.
    /// </summary>
    public Http2Negotiation Http2NegotiationWith(bool isTls)
        => HttpVersion.Major != 2 ? Http2Negotiation.None
            : isTls ? (VersionPolicy == HttpVersionPolicy.RequestVersionOrLower ? Http2Negotiation.AlpnH2OrHttp11 : Http2Negotiation.AlpnH2)
            : VersionPolicy == HttpVersionPolicy.RequestVersionOrLower ? Http2Negotiation.None : Http2Negotiation.PriorKnowledge;

    /// <summary>
    /// Whether a destination's HTTP/2 connection whose streams are all in use is joined by another
    /// (<c>HttpClient:EnableMultipleHttp2Connections</c>, YARP's default true); false: requests wait for a stream of one
    /// connection, capped at the destination's <c>SETTINGS_MAX_CONCURRENT_STREAMS</c>.
    /// </summary>
    public bool EnableMultipleHttp2Connections { get; init; } = true;

    /// <summary>The PROXY protocol header sent first on each upstream connection to its destinations (<c>Metadata:Llrp.ProxyProtocol</c>); none unless given.</summary>
    public ProxyProtocolVersion ProxyProtocol { get; init; }

    /// <summary>Its destinations are <c>tcp://host:port</c>: only TCP routes take it.</summary>
    public bool IsTcp => Destinations is [{ Endpoint.IsTcp: true }, ..];
}
