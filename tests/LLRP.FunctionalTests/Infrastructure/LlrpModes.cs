namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>
/// The proxy configurations the functional tests run over, by name, as theory data: raw mode with each upstream
/// strategy (over the default transport, and on Linux, where the default is epoll, over <c>transport=sockets</c> too), the
/// two HttpClient modes and the YARP mode (one invoker per client connection, or shared invokers used round-robin).
/// </summary>
public static class LlrpModes
{
    public const string RawPerClient = "raw/perClient";
    public const string RawPooled = "raw/pooled";
    public const string RawPerClientSockets = "raw/perClient/sockets";
    public const string RawPooledSockets = "raw/pooled/sockets";

    /// <summary>Raw mode over <c>transport=epoll</c> named, for what the epoll transport itself promises (the default's lists run over it on Linux).</summary>
    public const string RawPerClientEpoll = "raw/perClient/epoll";

    /// <inheritdoc cref="RawPerClientEpoll"/>
    public const string RawPooledEpoll = "raw/pooled/epoll";
    public const string HttpClient = "httpclient";
    public const string HttpClientSharedRoundRobin = "httpclient/shared-rr4";
    public const string HttpClientWithContext = "httpclient-httpcontext";
    public const string Yarp = "yarp";
    public const string YarpSharedRoundRobin = "yarp/shared-rr4";
    public const string RawPerClientOwnHttp2 = "raw/perClient/h2llrp";
    public const string RawPooledOwnHttp2 = "raw/pooled/h2llrp";
    public const string RawPooledSocketsOwnHttp2 = "raw/pooled/sockets/h2llrp";

    /// <summary>Raw mode, pooled, with HTTP/2 streams' requests pipelined upstream (<c>pool.pipelineDepth</c>): for the HTTP/2 tests (<see cref="Http2.Http2Servers.Modes"/>).</summary>
    public const string RawPooledPipelined = "raw/pooled/pipelined";

    /// <summary>
    /// Raw mode's strategies over <c>transport=sockets</c>, in the lists below on Linux, where the default is epoll (the
    /// default elsewhere is sockets): the functional suite's raw-mode tests run over both transports (<c>dotnet test
    /// tests/LLRP.FunctionalTests --filter "DisplayName~/sockets"</c> runs the sockets ones alone).
    /// </summary>
    public static readonly string[] RawOverSockets = OperatingSystem.IsLinux() ? [RawPerClientSockets, RawPooledSockets] : [];

    /// <summary>One configuration of each mode, and of each raw strategy.</summary>
    public static readonly string[] Every = [RawPerClient, RawPooled, .. RawOverSockets, HttpClient, HttpClientWithContext, Yarp];

    /// <summary><see cref="Every"/> and the modes with shared invokers (HttpClient, YARP), for tests of many requests and connections.</summary>
    public static readonly string[] EveryWithSharedClients = [.. Every, HttpClientSharedRoundRobin, YarpSharedRoundRobin];

    /// <summary>The raw mode's configurations, for what only raw mode does (each use names why).</summary>
    public static readonly string[] RawOnly = [RawPerClient, RawPooled, .. RawOverSockets];

    /// <summary>
    /// Raw mode with its own HTTP/2 client (<c>http2.client=llrp</c>), for the tests of clusters that ask HTTP/2 (the
    /// setting changes nothing else): <see cref="Every"/> and these cover both clients.
    /// </summary>
    public static readonly string[] OwnHttp2Client = [RawPerClientOwnHttp2, RawPooledOwnHttp2, .. OperatingSystem.IsLinux() ? [RawPooledSocketsOwnHttp2] : Array.Empty<string>()];

    /// <summary>
    /// The HTTP/2 client of the raw configurations but <see cref="OwnHttp2Client"/>'s, named though raw mode's default is
    /// its own (<c>llrp</c>), so that both clients stay covered.
    /// </summary>
    private const string OverHttpClient = "http2.client=httpclient";

    public static TheoryData<string> All => new(Every);

    public static TheoryData<string> AllWithSharedClients => new(EveryWithSharedClients);

    public static TheoryData<string> Raw => new(RawOnly);

    /// <summary>
    /// The proxy settings (<c>key=value</c>) of configuration <paramref name="mode"/>, and of the HTTP/2 server it names
    /// after <see cref="Http2.Http2Servers.Separator"/> (<see cref="Http2.Http2Servers.Mode"/>).
    /// </summary>
    public static string[] Settings(string mode)
        => mode.IndexOf(Http2.Http2Servers.Separator) is var at and >= 0
            ? [.. Settings(mode[..at]), .. Http2.Http2Servers.Settings(mode[(at + 1)..])]
            : ModeSettings(mode);

    private static string[] ModeSettings(string mode) => mode switch
    {
        RawPerClient => ["mode=raw", "upstreamConnections=perClient", OverHttpClient],
        RawPooled => ["mode=raw", "upstreamConnections=pooled", OverHttpClient],
        RawPerClientSockets => ["mode=raw", "upstreamConnections=perClient", "transport=sockets", OverHttpClient],
        RawPooledSockets => ["mode=raw", "upstreamConnections=pooled", "transport=sockets", OverHttpClient],
        RawPerClientEpoll => ["mode=raw", "upstreamConnections=perClient", "transport=epoll", OverHttpClient],
        RawPooledEpoll => ["mode=raw", "upstreamConnections=pooled", "transport=epoll", OverHttpClient],
        HttpClient => ["mode=httpclient"],
        HttpClientSharedRoundRobin => ["mode=httpclient", "shareClients=true", "shareClients.roundRobin=true", "shareClients.count=4"],
        HttpClientWithContext => ["mode=httpclient-httpcontext"],
        Yarp => ["mode=yarp"],
        YarpSharedRoundRobin => ["mode=yarp", "shareClients=true", "shareClients.roundRobin=true", "shareClients.count=4"],
        RawPerClientOwnHttp2 => ["mode=raw", "upstreamConnections=perClient", "http2.client=llrp"],
        RawPooledOwnHttp2 => ["mode=raw", "upstreamConnections=pooled", "http2.client=llrp"],
        RawPooledSocketsOwnHttp2 => ["mode=raw", "upstreamConnections=pooled", "transport=sockets", "http2.client=llrp"],
        RawPooledPipelined => ["mode=raw", "upstreamConnections=pooled", "pool.pipelineDepth=8", OverHttpClient],
        _ => throw new ArgumentOutOfRangeException(nameof(mode), mode, "Not a configuration of LlrpModes."),
    };

    public static bool IsRaw(string mode) => mode.Split(Http2.Http2Servers.Separator)[0] is var name && (RawOnly.Contains(name) || OwnHttp2Client.Contains(name) || name is RawPerClientEpoll or RawPooledEpoll or RawPooledPipelined);

    /// <summary>
    /// Most times one request reaches one destination that closes without answering: once in raw mode; in the modes over
    /// HttpClient, SocketsHttpHandler itself sends a request without a body again on a new connection, up to 3 times,
    /// before the proxy sees the failure (a documented difference of those modes).
    /// </summary>
    public static int SendsPerDestination(string mode) => IsRaw(mode) ? 1 : 4;

    /// <summary>Every configuration of <see cref="Every"/> crossed with every value of <paramref name="values"/>.</summary>
    public static TheoryData<string, T> Cross<T>(params T[] values) => Cross(Every, values);

    /// <summary>Every configuration of <see cref="Every"/> crossed with every pair of <paramref name="pairs"/>.</summary>
    public static TheoryData<string, T1, T2> Cross<T1, T2>(params (T1, T2)[] pairs) => Cross(Every, pairs);

    /// <summary>Every configuration of <paramref name="modes"/> crossed with every value of <paramref name="values"/>.</summary>
    public static TheoryData<string, T> Cross<T>(IEnumerable<string> modes, params T[] values)
    {
        var data = new TheoryData<string, T>();
        foreach (var mode in modes)
        {
            foreach (var value in values)
            {
                data.Add(mode, value);
            }
        }

        return data;
    }

    /// <summary>Every configuration of <paramref name="modes"/> crossed with every pair of <paramref name="pairs"/>.</summary>
    public static TheoryData<string, T1, T2> Cross<T1, T2>(IEnumerable<string> modes, params (T1, T2)[] pairs)
    {
        var data = new TheoryData<string, T1, T2>();
        foreach (var mode in modes)
        {
            foreach (var (first, second) in pairs)
            {
                data.Add(mode, first, second);
            }
        }

        return data;
    }
}
