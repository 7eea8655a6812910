namespace LLRP.Configuration;

/// <summary>Every configuration key LLRP reads, as given on the command line (<c>--key=value</c>) or in the environment.</summary>
public static class ConfigurationKeys
{
    public const string Urls = "urls";
    public const string Downstream = "downstream";
    public const string Balancing = "balancing";
    public const string PassiveHealthFailures = "health.passive.consecutiveFailures";
    public const string PassiveHealthReactivationMs = "health.passive.reactivationMs";
    public const string ActiveHealthPath = "health.active.path";
    public const string ActiveHealthIntervalMs = "health.active.intervalMs";
    public const string ActiveHealthTimeoutMs = "health.active.timeoutMs";
    public const string ActiveHealthyThreshold = "health.active.healthyThreshold";
    public const string ActiveUnhealthyThreshold = "health.active.unhealthyThreshold";
    public const string MaxRetries = "retries.max";
    public const string RetryUnsentAnyMethod = "retries.unsentAnyMethod";
    public const string MaxConnectionsPerDestination = "limits.maxConnectionsPerDestination";
    public const string MaxQueuedPerDestination = "limits.maxQueuedPerDestination";
    public const string QueueTimeoutMs = "limits.queueTimeoutMs";
    public const string MaxClientConnections = "limits.maxClientConnections";
    public const string AdminUrls = "admin.urls";
    public const string OriginUrls = "origin.urls";
    public const string Mode = "mode";
    public const string HttpClientFlag = "httpclient";
    public const string HttpClientWithContextFlag = "httpclient-httpcontext";
    public const string YarpFlag = "yarp";
    public const string UpstreamConnections = "upstreamConnections";
    public const string PoolMaxIdlePerDownstream = "pool.maxIdlePerDownstream";
    public const string PoolIdleTimeoutMs = "pool.idleTimeoutMs";
    public const string PoolPipelineDepth = "pool.pipelineDepth";
    public const string ShareClients = "shareClients";
    public const string ShareClientsRoundRobin = "shareClients.roundRobin";
    public const string ShareClientsCount = "shareClients.count";
    public const string ReuseRequest = "LLRP_HTTPCLIENT_REUSEREQUEST";
    public const string PreserveHost = "preserveHost";
    public const string ForwardedHeaders = "forwardedHeaders";
    public const string Via = "via";
    public const string ConnectTimeoutMs = "timeouts.connectMs";
    public const string ResponseHeadersTimeoutMs = "timeouts.responseHeadersMs";
    public const string KeepAliveTimeoutMs = "timeouts.keepAliveMs";
    public const string RequestHeadersTimeoutMs = "timeouts.requestHeadersMs";
    public const string TunnelIdleTimeoutMs = "timeouts.tunnelIdleMs";
    public const string UpgradeProtocols = "upgrade.protocols";
    public const string MaxRequestLineSize = "limits.maxRequestLineSize";
    public const string MaxRequestHeadersTotalSize = "limits.maxRequestHeadersTotalSize";
    public const string MaxRequestHeaderCount = "limits.maxRequestHeaderCount";
    public const string MaxRequestBodySize = "limits.maxRequestBodySize";
    public const string MaxResponseHeadersTotalSize = "limits.maxResponseHeadersTotalSize";
    public const string MaxChunkLineSize = "limits.maxChunkLineSize";
    public const string ShutdownTimeoutMs = "shutdownTimeoutMs";
    public const string ThreadCount = "threadCount";
    public const string InlineScheduling = "transport.inlineScheduling";
    public const string InlineCompletions = "transport.inlineCompletions";
    public const string Transport = "transport";
    public const string TcpSplice = "tcp.splice";
    public const string TasksPooling = "tasks.pooling";
    public const string CertificatePath = "tls.certificatePath";
    public const string CertificatePassword = "tls.certificatePassword";
    public const string CertificateKeyPath = "tls.certificateKeyPath";
    public const string DownstreamInsecure = "tls.downstreamInsecure";
    public const string AccessLog = "accessLog";
    public const string AccessLogFormat = "accessLog.format";
    public const string AccessLogBufferSize = "accessLog.bufferSize";
    public const string Http2MaxConcurrentStreams = "limits.http2.maxConcurrentStreams";
    public const string Http2MaxHeaderFieldSize = "limits.http2.maxHeaderFieldSize";
    public const string Http2MaxFrameSize = "limits.http2.maxFrameSize";
    public const string Http2InitialConnectionWindowSize = "limits.http2.initialConnectionWindowSize";
    public const string Http2InitialStreamWindowSize = "limits.http2.initialStreamWindowSize";
    public const string Http2Server = "http2.server";
    public const string AcceptProxyProtocol = "proxyProtocol.accept";
    public const string ProxyProtocolTrustedNetworks = "proxyProtocol.trustedNetworks";
    public const string ProxyProtocolTimeoutMs = "proxyProtocol.timeoutMs";
    public const string Http2Client = "http2.client";

    /// <summary>The <c>destinations</c> section of appsettings.json, in place of <see cref="Downstream"/>: an array of entries with these keys.</summary>
    public static class DestinationsSection
    {
        public const string Name = "destinations";
        public const string Address = "address";
        public const string Weight = "weight";
    }

    /// <summary>
    /// The <c>ReverseProxy</c> section of appsettings.json, in YARP's schema, in place of <see cref="Downstream"/>; LLRP's
    /// own keys live in YARP's free-form <c>Metadata</c> dictionaries, with the prefix <see cref="MetadataPrefix"/>.
    /// </summary>
    public static class ReverseProxySection
    {
        public const string Name = "ReverseProxy";
        public const string Routes = "Routes";
        public const string Clusters = "Clusters";

        /// <summary>Metadata keys with this prefix are LLRP's, each one known; the others are the user's and ignored.</summary>
        public const string MetadataPrefix = "Llrp.";

        /// <summary>Cluster metadata: other destinations an unanswered request may go to (else <see cref="MaxRetries"/>).</summary>
        public const string Retries = "Llrp.Retries";

        /// <summary>Cluster metadata: requests that may wait for a destination at its limit (else <see cref="MaxQueuedPerDestination"/>).</summary>
        public const string MaxQueued = "Llrp.MaxQueuedPerDestination";

        /// <summary>Cluster metadata: how long a request may wait for a destination, in ms (else <see cref="QueueTimeoutMs"/>).</summary>
        public const string QueueTimeout = "Llrp.QueueTimeoutMs";

        /// <summary>Cluster metadata: transport failures in a row that eject a destination (else <see cref="PassiveHealthFailures"/>).</summary>
        public const string PassiveFailures = "Llrp.PassiveConsecutiveFailures";

        /// <summary>Cluster metadata: successful probes in a row that bring a destination back (else <see cref="ActiveHealthyThreshold"/>).</summary>
        public const string ActiveHealthy = "Llrp.ActiveHealthyThreshold";

        /// <summary>Cluster metadata, YARP's own: failed probes in a row that take a destination out (else <see cref="ActiveUnhealthyThreshold"/>).</summary>
        public const string ActiveUnhealthy = "ConsecutiveFailuresHealthPolicy.Threshold";

        /// <summary>Destination metadata: its weight, 1 to <see cref="DestinationOptions.MaxWeight"/> (1 unless given).</summary>
        public const string Weight = "Llrp.Weight";

        /// <summary>The TCP routes (LLRP's extension of YARP's schema): each relays the connections of its listen address to its cluster.</summary>
        public const string TcpRoutes = "TcpRoutes";

        /// <summary>Cluster metadata: the PROXY protocol header sent first on each upstream connection, <c>v1</c> or <c>v2</c> (none unless given).</summary>
        public const string ProxyProtocol = "Llrp.ProxyProtocol";
    }
}
