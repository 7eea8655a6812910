using System.Security.Cryptography.X509Certificates;
using LLRP.Configuration.Routes;

namespace LLRP.Configuration;

/// <summary>
/// Every setting of the proxy, read once at start-up by <see cref="ProxyOptionsReader"/>.
/// Each default names where it comes from.
/// </summary>
public sealed record ProxyOptions
{
    /// <summary>Key <c>urls</c>: where the proxy listens, <c>;</c>-separated (every interface on port 8080 by default, as the original LLRP).</summary>
    public string Urls { get; init; } = ProxyOptionsReader.DefaultUrls;

    /// <summary>
    /// Key <c>downstream</c> (<c>;</c>-separated base URIs, each optionally <c>|w=N</c>) or the <c>destinations</c> section
    /// of appsettings.json: where requests go, reloaded when appsettings.json changes. With a <c>ReverseProxy</c> section,
    /// the destinations of its first cluster, until every reader of this property reads <see cref="Routing"/>.
    /// </summary>
    public required IReadOnlyList<DestinationOptions> Destinations { get; init; }

    /// <summary>
    /// The routes and clusters: the <c>ReverseProxy</c> section (YARP's schema), or else the implicit catch-all route to
    /// one cluster of <see cref="Destinations"/> configured by the top-level keys (<see cref="RoutingOptionsReader.Implicit"/>).
    /// </summary>
    public required RoutingOptions Routing { get; init; }

    /// <summary>Key <c>balancing</c>: how a destination is chosen (round robin per client connection, as the prototype, by default).</summary>
    public BalancingPolicy Balancing { get; init; } = BalancingPolicy.RoundRobinPerConnection;

    /// <summary>
    /// Key <c>health.passive.consecutiveFailures</c>: transport failures in a row that eject a destination (0 = never).
    /// 5, as Envoy's outlier detection; a destination that is the only one is never ejected, as nginx.
    /// </summary>
    public int PassiveHealthFailures { get; init; } = 5;

    /// <summary>Key <c>health.passive.reactivationMs</c>: how long an ejected destination gets no request (nginx's <c>fail_timeout</c>, 10 s).</summary>
    public TimeSpan PassiveHealthReactivation { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>Key <c>health.active.path</c>: the path probed on every destination; null = no active health check (the default).</summary>
    public string? ActiveHealthPath { get; init; }

    /// <summary>Key <c>health.active.intervalMs</c>: time between two probes of a destination (5 s, as vproxy's <c>period</c>).</summary>
    public TimeSpan ActiveHealthInterval { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>Key <c>health.active.timeoutMs</c>: a probe without a response head within this fails (1 s).</summary>
    public TimeSpan ActiveHealthTimeout { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Key <c>health.active.healthyThreshold</c>: successful probes in a row that bring a destination back (1).</summary>
    public int ActiveHealthyThreshold { get; init; } = 1;

    /// <summary>Key <c>health.active.unhealthyThreshold</c>: failed probes in a row that take a destination out (2).</summary>
    public int ActiveUnhealthyThreshold { get; init; } = 2;

    /// <summary>Key <c>retries.max</c>: how many other destinations an idempotent request may be sent to after a failure that left it unanswered (0 = none).</summary>
    public int MaxRetries { get; init; } = 1;

    /// <summary>
    /// Key <c>retries.unsentAnyMethod</c>: a request that was never sent (the connect or the TLS handshake to its
    /// destination failed) goes to another destination whatever its method, within <c>retries.max</c>; on by default, as
    /// nginx and HAProxy retry a failed connect. Off: only idempotent requests are retried.
    /// </summary>
    public bool RetryUnsentAnyMethod { get; init; } = true;

    /// <summary>Key <c>limits.maxConnectionsPerDestination</c>: most requests (batches) in flight to one destination; 0 = unlimited.</summary>
    public int MaxConnectionsPerDestination { get; init; }

    /// <summary>Key <c>limits.maxQueuedPerDestination</c>: requests that may wait for a destination at its limit; more are answered 503.</summary>
    public int MaxQueuedPerDestination { get; init; }

    /// <summary>Key <c>limits.queueTimeoutMs</c>: a request that waited this long for a destination is answered 503.</summary>
    public TimeSpan QueueTimeout { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>Key <c>limits.maxClientConnections</c>: most open client connections; one more is answered 503 and closed. 0 = unlimited.</summary>
    public int MaxClientConnections { get; init; }

    /// <summary>Key <c>admin.urls</c>: where the admin listener (<c>/metrics</c>, <c>/healthz</c>) binds; null = no admin listener (the default).</summary>
    public string? AdminUrls { get; init; }

    /// <summary>True when no <c>downstream</c> was configured and the bundled origin runs in-process.</summary>
    public bool EmbeddedDownstream { get; init; }

    /// <summary>Key <c>origin.urls</c>: where the bundled origin listens when it runs in-process (loopback port 8081 by default).</summary>
    public string OriginUrl { get; init; } = ProxyOptionsReader.EmbeddedDownstreamUrl;

    /// <summary>Key <c>mode</c> (or the prototype's <c>httpclient</c>, <c>httpclient-httpcontext</c>, <c>yarp</c> flags).</summary>
    public ProxyMode Mode { get; init; } = ProxyMode.Raw;

    /// <summary>
    /// Key <c>upstreamConnections</c>: <c>pooled</c> (the default: as cheap per request, and an idle client holds no
    /// upstream connection) or <c>perClient</c> (the prototype's behaviour).
    /// </summary>
    public UpstreamConnectionStrategy ConnectionStrategy { get; init; } = UpstreamConnectionStrategy.Pooled;

    /// <summary>Key <c>pool.maxIdlePerDownstream</c>: idle connections kept per downstream by the pooled strategy.</summary>
    public int MaxIdleConnectionsPerDownstream { get; init; } = 1024;

    /// <summary>
    /// Key <c>pool.pipelineDepth</c>: the most requests of HTTP/2 streams a pooled connection carries back to back (bodiless,
    /// idempotent, sent in one turn of an event loop); 1 sends each on a connection of its own.
    /// </summary>
    public int PipelineDepth { get; init; } = 1;

    /// <summary>The largest <see cref="PipelineDepth"/>: the exchanges of a line take their turns one inside the other's end.</summary>
    public const int MaxPipelineDepth = 64;

    /// <summary>Key <c>pool.idleTimeoutMs</c>: pooled connections idle longer than this are closed (SocketsHttpHandler's 1 min).</summary>
    public TimeSpan PooledConnectionIdleTimeout { get; init; } = TimeSpan.FromMinutes(1);

    /// <summary>Key <c>preserveHost</c>: forward the client's <c>Host</c> instead of the downstream authority (YARP's default is to rewrite it).</summary>
    public bool PreserveHost { get; init; }

    /// <summary>Key <c>forwardedHeaders</c>: append <c>X-Forwarded-For</c>, set <c>X-Forwarded-Proto</c> and <c>X-Forwarded-Host</c> (on, as YARP).</summary>
    public bool ForwardedHeaders { get; init; } = true;

    /// <summary>Key <c>via</c>: add <c>Via: 1.1 llrp</c> to forwarded requests, as RFC 9110 §7.6.3 asks of a gateway.</summary>
    public bool AddVia { get; init; } = true;

    /// <summary>Key <c>timeouts.connectMs</c>: upstream connect timeout; 504 when it passes (SocketsHttpHandler has none; 10 s is YARP's sample).</summary>
    public TimeSpan ConnectTimeout { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>Key <c>timeouts.responseHeadersMs</c>: time from the request head sent to the response head received; 504 when it passes (HttpClient's 100 s).</summary>
    public TimeSpan ResponseHeadersTimeout { get; init; } = TimeSpan.FromSeconds(100);

    /// <summary>Key <c>timeouts.keepAliveMs</c>: how long an idle client connection is kept between requests (Kestrel's 130 s).</summary>
    public TimeSpan KeepAliveTimeout { get; init; } = TimeSpan.FromSeconds(130);

    /// <summary>Key <c>timeouts.requestHeadersMs</c>: time from the first byte of a request head to its end; 408 past it (Kestrel's 30 s).</summary>
    public TimeSpan RequestHeadersTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Key <c>timeouts.tunnelIdleMs</c>: a tunnel (after <c>101 Switching Protocols</c>) with no byte either way for this
    /// long is closed. 5 min: longer than the keep-alive pings of ASP.NET Core's WebSockets (2 min) and of
    /// <c>ClientWebSocket</c> (30 s), so a live WebSocket is never cut.
    /// </summary>
    public TimeSpan TunnelIdleTimeout { get; init; } = TimeSpan.FromMinutes(5);

    /// <summary>
    /// Key <c>upgrade.protocols</c>: the protocols an <c>Upgrade</c> request may switch to through the proxy, tunnelled
    /// after <c>101</c> (<c>,</c>-separated; <c>none</c> for no tunnel at all). WebSocket only by default (RFC 6455), as
    /// YARP; <c>h2c</c> is refused, since it would carry requests past the proxy's checks.
    /// </summary>
    public IReadOnlyList<string> UpgradeProtocols { get; init; } = ["websocket"];

    /// <summary>Key <c>limits.maxRequestLineSize</c>: longest request line; 414 past it (Kestrel's 8 KiB).</summary>
    public int MaxRequestLineSize { get; init; } = 8 * 1024;

    /// <summary>Key <c>limits.maxRequestHeadersTotalSize</c>: largest request head after the request line; 431 past it (Kestrel's 32 KiB).</summary>
    public int MaxRequestHeadersTotalSize { get; init; } = 32 * 1024;

    /// <summary>Key <c>limits.maxRequestHeaderCount</c>: most request header fields; 431 past it (Kestrel's 100).</summary>
    public int MaxRequestHeaderCount { get; init; } = 100;

    /// <summary>Key <c>limits.maxRequestBodySize</c>: largest request body in bytes; 413 past it; 0 = unlimited (a proxy streams, so none by default).</summary>
    public long MaxRequestBodySize { get; init; }

    /// <summary>Key <c>limits.maxResponseHeadersTotalSize</c>: largest upstream response head; 502 past it (SocketsHttpHandler's 64 KiB).</summary>
    public int MaxResponseHeadersTotalSize { get; init; } = 64 * 1024;

    /// <summary>Key <c>limits.maxChunkLineSize</c>: longest chunk-size line with its extensions, both directions (Kestrel allows no more than 4 KiB of extensions either).</summary>
    public int MaxChunkLineSize { get; init; } = 4 * 1024;

    /// <summary>Key <c>shareClients</c>: HttpClient modes share invokers between connections.</summary>
    public bool ShareClients { get; init; }

    /// <summary>Key <c>shareClients.roundRobin</c>: cycle through the shared invokers per request.</summary>
    public bool ShareClientsRoundRobin { get; init; }

    /// <summary>Key <c>shareClients.count</c>: how many shared invokers.</summary>
    public int ShareClientsCount { get; init; } = 1;

    /// <summary>Key <c>LLRP_HTTPCLIENT_REUSEREQUEST</c>: reuse one <c>HttpRequestMessage</c> per connection.</summary>
    public bool ReuseHttpRequestMessage { get; init; } = true;

    /// <summary>Key <c>threadCount</c>: Kestrel sockets transport <c>IOQueueCount</c>, or the epoll transport's event loops; null = transport default.</summary>
    public int? ThreadCount { get; init; }

    /// <summary>
    /// Key <c>transport</c>: what moves bytes between sockets and buffers: LLRP's own epoll event loops (client
    /// connections, and raw mode's upstream connections to <c>http</c> destinations), the default on Linux, where it spends
    /// less CPU than Kestrel's on every shape measured and holds no more per idle connection; or Kestrel's sockets
    /// transport, the default elsewhere.
    /// </summary>
    public TransportKind Transport { get; init; } = OperatingSystem.IsLinux() ? TransportKind.Epoll : TransportKind.Sockets;

    /// <summary>
    /// Key <c>transport.inlineScheduling</c>: run pipe continuations on the thread that completed the socket operation
    /// instead of hopping to the thread pool, for client and upstream connections (Kestrel's
    /// <c>UnsafePreferInlineScheduling</c>). On by default: with <see cref="InlineCompletions"/> a request is parsed,
    /// forwarded and answered on the socket thread, with no thread switch (measured: about a quarter less CPU per
    /// request). Safe here because nothing on the forwarding path blocks.
    /// </summary>
    public bool InlineScheduling { get; init; } = true;

    /// <summary>
    /// Key <c>transport.inlineCompletions</c>: .NET runs socket completions on its epoll threads instead of queueing them
    /// to the thread pool (the runtime's <c>DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1</c>, which LLRP sets from this
    /// key before its first socket). On by default, for the reason above.
    /// </summary>
    public bool InlineCompletions { get; init; } = true;

    /// <summary>
    /// Key <c>tcp.splice</c>: on Linux, TCP routes listen on sockets of their own and relay on event loops of their own,
    /// bulk bytes with <c>splice(2)</c>, socket → pipe → socket, never copied through the process (a long transfer is
    /// copied); Kestrel's sockets transport keeps a receive pending on its connections, so a splice from them would race
    /// with it. On by default; off, or on other systems, TCP routes relay through Kestrel's sockets transport with a copy
    /// loop.
    /// </summary>
    public bool TcpSplice { get; init; } = true;

    /// <summary>
    /// Key <c>tasks.pooling</c>: the request path's async methods reuse their state-machine boxes, kept per thread and
    /// method up to a bound and emptied at each gen2 collection (<c>Tasks/BoxPool</c>). On by default: off,
    /// each suspension allocates a box, as with the runtime's default builder.
    /// </summary>
    public bool TasksPooling { get; init; } = true;

    /// <summary>Key <c>shutdownTimeoutMs</c>: how long in-flight requests may finish after SIGTERM.</summary>
    public TimeSpan ShutdownTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Key <c>tls.certificatePath</c>: the certificate file of the <c>https</c> urls, PKCS#12 (.pfx) or PEM; null when none is given.</summary>
    public string? CertificatePath { get; init; }

    /// <summary>Key <c>tls.certificateKeyPath</c>: the PEM private key of a PEM certificate; null when the key is in the certificate file.</summary>
    public string? CertificateKeyPath { get; init; }

    /// <summary>True when key <c>tls.certificatePassword</c> (the PKCS#12 file's or the encrypted PEM key's password) was given; the password itself is not kept.</summary>
    public bool HasCertificatePassword { get; init; }

    /// <summary>The certificate the <c>https</c> urls present, with its private key, loaded and checked at start-up; null without <c>tls.certificatePath</c>.</summary>
    public X509Certificate2? ServerCertificate { get; init; }

    /// <summary>
    /// Key <c>tls.downstreamInsecure</c>: accept any certificate from <c>https</c> downstreams, for test origins with
    /// self-signed certificates. Off by default: a downstream's certificate must be valid for its host name.
    /// </summary>
    public bool DownstreamInsecure { get; init; }

    /// <summary>
    /// Key <c>accessLog</c>: where one line per answered request goes: <c>stdout</c>, <c>stderr</c> or a file path
    /// (appended to, reopened on SIGHUP); null when off, the default.
    /// </summary>
    public string? AccessLog { get; init; }

    /// <summary>Key <c>accessLog.format</c>: nginx's <c>combined</c> with LLRP's fields after it (the default), or one JSON object a line.</summary>
    public AccessLogFormat AccessLogFormat { get; init; } = AccessLogFormat.Combined;

    /// <summary>
    /// Key <c>accessLog.bufferSize</c>: most bytes of lines waiting for the access log's writer; a line that does not fit
    /// is dropped and counted (<c>llrp.access_log.dropped</c>), so a slow sink never holds a request back. 1 MiB: about
    /// 5,000 lines of 200 bytes (the writer holds two such buffers, one filling while the other is written).
    /// </summary>
    public int AccessLogBufferSize { get; init; } = 1024 * 1024;

    /// <summary>
    /// Key <c>http2.server</c>: which HTTP/2 server decodes the proxy listeners' HTTP/2 connections: LLRP's own (the
    /// default) or Kestrel's (<see cref="Http2ServerKind.Kestrel"/>); both hand their request streams to the same front end.
    /// </summary>
    public Http2ServerKind Http2Server { get; init; } = Http2ServerKind.Llrp;

    /// <summary>
    /// Key <c>http2.client</c>: which client carries HTTP/2 streams to destinations their cluster asks HTTP/2 of (h2c by
    /// prior knowledge, h2 by ALPN), in raw mode: raw mode's own (<see cref="Http2ClientKind.Llrp"/>, the default: all of
    /// the functional tests of HTTP/2 clusters pass over it, and it costs less CPU and a seventh of the allocations per
    /// request in the same bench run) or HttpClient.
    /// </summary>
    public Http2ClientKind Http2Client { get; init; } = Http2ClientKind.Llrp;

    /// <summary>Keys <c>limits.http2.*</c>: the HTTP/2 front end's limits (<see cref="Http2Settings"/>).</summary>
    public Http2Settings Http2 { get; init; } = Http2Settings.Default;

    /// <summary>
    /// The clusters' <c>HttpClient:EnableMultipleHttp2Connections</c> (true unless set): HTTP/2 requests go to destinations
    /// through one HttpClient handler for all clusters, so every cluster gives the same value, fixed at start-up.
    /// </summary>
    public bool EnableMultipleHttp2Connections { get; init; } = true;

    /// <summary>Keys <c>proxyProtocol.*</c>: the PROXY protocol header every connection to the urls starts with; null (the default) when the urls take none.</summary>
    public ProxyProtocolAcceptance? AcceptProxyProtocol { get; init; }
}
