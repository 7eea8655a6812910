using System.Net;
using LLRP.Downstream;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Hosting;
using LLRP.Testing;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// A cluster at <c>HttpRequest:Version</c> 2 in front of an <c>https</c> destination (the bundled origin behind TLS with a
/// self-signed certificate, trusted with <c>tls.downstreamInsecure</c>), an HTTP/2 client in front of the proxy, over
/// both of raw mode's HTTP/2 clients (<c>http2.client</c> named): h2 chosen by ALPN (RFC 9113 §3.2), and what each
/// <c>VersionPolicy</c> does when the destination speaks HTTP/1.1 only (YARP's meanings).
/// </summary>
public sealed class Http2TlsDestinationTests : IDisposable
{
    private readonly TestCertificate _certificate = TestCertificate.Create();

    public static TheoryData<string, string> ModesAndPolicies => LlrpModes.Cross(
        [LlrpModes.RawPooled, LlrpModes.RawPooledOwnHttp2], "RequestVersionExact", "RequestVersionOrLower");

    public static TheoryData<string> Modes => new(LlrpModes.RawPooled, LlrpModes.RawPooledOwnHttp2);

    public static TheoryData<string> OwnHttp2Modes => new(LlrpModes.RawPooledOwnHttp2, LlrpModes.RawPerClientOwnHttp2);

    public void Dispose() => _certificate.Dispose();

    /// <summary>Posts <paramref name="requests"/> bodies in turn; each comes back echoed by the origin, which heard it over <paramref name="protocol"/>.</summary>
    private static async Task AssertEchoedAsync(HttpClient client, string proxyUrl, string protocol, int requests)
    {
        for (var i = 0; i < requests; i++)
        {
            using var response = await client.PostAsync($"{proxyUrl}/echo", new StringContent($"body{i}"));

            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Equal(protocol, response.Headers.GetValues("X-Echo-Protocol").Single());
            Assert.Equal($"body{i}", await response.Content.ReadAsStringAsync());
        }
    }

    // RFC 9113 §3.2: over TLS, HTTP/2 is chosen by ALPN "h2"; a destination that offers both gets HTTP/2 under either policy.
    [Theory]
    [MemberData(nameof(ModesAndPolicies))]
    public async Task AlpnH2_OriginHearsHttp2_Rfc9113_3_2(string mode, string policy)
    {
        await using var origin = await StartOriginAsync(http11Only: false);
        await using var proxy = await StartProxyAsync(origin, mode, policy);
        using var client = Http2Clients.Create();

        await AssertEchoedAsync(client, proxy.Url, "HTTP/2", requests: 2);
    }

    // YARP's RequestVersionOrLower: a destination that chooses http/1.1 by ALPN is answered over HTTP/1.1, request after request.
    [Theory]
    [MemberData(nameof(Modes))]
    public async Task OriginHttp11Only_RequestVersionOrLower_FallsBackToHttp11(string mode)
    {
        await using var origin = await StartOriginAsync(http11Only: true);
        await using var proxy = await StartProxyAsync(origin, mode, "RequestVersionOrLower");
        using var client = Http2Clients.Create();

        await AssertEchoedAsync(client, proxy.Url, "HTTP/1.1", requests: 3);
    }

    // The fall-back to HTTP/1.1 authenticates the destination by its cluster's rule, as ALPN h2 did: the cluster accepts any
    // certificate where tls.downstreamInsecure is off, so the self-signed one is taken on every request.
    [Theory]
    [MemberData(nameof(OwnHttp2Modes))]
    public async Task OriginHttp11Only_RequestVersionOrLower_ClusterAcceptsAnyCertificate_FallsBackWithTheClusterRule(string mode)
    {
        await using var origin = await StartOriginAsync(http11Only: true);
        await using var proxy = await StartProxyAsync(origin, mode, "RequestVersionOrLower", clusterAcceptsAnyCertificate: true);
        using var client = Http2Clients.Create();

        await AssertEchoedAsync(client, proxy.Url, "HTTP/1.1", requests: 3);
    }

    // A destination's choice of http/1.1 holds for pool.idleTimeoutMs only: after it, h2 is offered again (RFC 9113 §3.2;
    // HttpClient offers it on each new connection). The ClientHellos seen by a relay show which connection offered it.
    [Fact]
    public async Task OriginHttp11Only_RequestVersionOrLower_H2OfferedAgainAfterTheIdleTimeout_Rfc9113_3_2()
    {
        await using var origin = await StartOriginAsync(http11Only: true);
        await using var relay = TcpRelay.Start(origin.Port);
        await using var proxy = await HostedApp.StartAsync(ProxyHost.Build(
            [.. ProxySettings($"https://127.0.0.1:{relay.Port}", LlrpModes.RawPooledOwnHttp2, "RequestVersionOrLower"), "--pool.idleTimeoutMs=50"]));
        using var client = Http2Clients.Create();

        using var first = await client.GetAsync($"{proxy.Url}/echo");
        var afterFirst = relay.Connections.Count;
        // Longer than pool.idleTimeoutMs: the choice has expired whenever the next request comes.
        await Task.Delay(200);
        using var second = await client.GetAsync($"{proxy.Url}/echo");

        Assert.Equal((HttpStatusCode.OK, HttpStatusCode.OK), (first.StatusCode, second.StatusCode));
        Assert.True(OffersH2ThenHttp11(relay.Connections[0].FromClient));
        Assert.Contains(relay.Connections.Skip(afterFirst), connection => OffersH2ThenHttp11(connection.FromClient));
    }

    // The response headers timeout (ActivityTimeout) starts again for the fall-back to HTTP/1.1: an h2 attempt whose connect
    // and handshake outlasted it (the relay holds the first connection longer) does not fail the fall-back with 504.
    [Fact]
    public async Task OriginHttp11Only_RequestVersionOrLower_SlowH2Handshake_FallBackStillAnswers()
    {
        await using var origin = await StartOriginAsync(http11Only: true);
        await using var relay = TcpRelay.Start(origin.Port, firstDelay: TimeSpan.FromSeconds(3));
        await using var proxy = await HostedApp.StartAsync(ProxyHost.Build(
            [.. ProxySettings($"https://127.0.0.1:{relay.Port}", LlrpModes.RawPooledOwnHttp2, "RequestVersionOrLower"), "--ReverseProxy:Clusters:h2:HttpRequest:ActivityTimeout=00:00:02"]));
        using var client = Http2Clients.Create();

        using var response = await client.GetAsync($"{proxy.Url}/echo");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("HTTP/1.1", response.Headers.GetValues("X-Echo-Protocol").Single());
    }

    // YARP's RequestVersionExact: a destination that does not choose h2 fails the request with 502; the own client says why
    // (a TLS handshake without h2), and the log names the protocol the destination refused (RFC 7301 §3.2's no_application_protocol).
    [Fact]
    public async Task OriginHttp11Only_RequestVersionExact_502NamingTheHandshake()
    {
        await using var origin = await StartOriginAsync(http11Only: true);
        using var root = ContentRoot.Empty();
        await using var proxy = AppProcess.StartProxy(root.Path, [.. ProxySettings(origin.Url, LlrpModes.RawPooledOwnHttp2, "RequestVersionExact")]);
        using var client = Http2Clients.Create();

        using var response = await client.GetAsync($"http://127.0.0.1:{await proxy.ListeningPortAsync("LLRP listening on ")}/echo");
        var logged = await proxy.LineAsync("TLS handshake with destination");
        await proxy.TerminateAsync();

        Assert.Equal(HttpStatusCode.BadGateway, response.StatusCode);
        Assert.Contains(nameof(LLRP.Diagnostics.ForwarderError.TlsHandshakeFailed), await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Contains("the destination offers none of the protocols asked: h2", logged, StringComparison.OrdinalIgnoreCase);
    }

    private Task<HostedApp> StartOriginAsync(bool http11Only) => HostedApp.StartAsync(DownstreamHost.Build(
    [
        "--urls=https://127.0.0.1:0",
        $"--Kestrel:Certificates:Default:Path={_certificate.PfxPath}",
        $"--Kestrel:Certificates:Default:Password={TestCertificate.Password}",
        .. http11Only ? ["--Kestrel:EndpointDefaults:Protocols=Http1"] : Array.Empty<string>(),
    ]));

    /// <summary>
    /// The proxy in <paramref name="mode"/>, every request routed to <paramref name="origin"/> at HTTP/2 with <paramref name="policy"/>;
    /// the origin's certificate accepted by <c>tls.downstreamInsecure</c>, or by the cluster's own rule when <paramref name="clusterAcceptsAnyCertificate"/>.
    /// </summary>
    private static Task<HostedApp> StartProxyAsync(HostedApp origin, string mode, string policy, bool clusterAcceptsAnyCertificate = false)
        => HostedApp.StartAsync(ProxyHost.Build([.. ProxySettings(origin.Url, mode, policy, clusterAcceptsAnyCertificate)]));

    /// <summary>A ClientHello whose ALPN list is <c>h2</c> then <c>http/1.1</c> (RFC 7301 §3.1: each name after its length byte).</summary>
    private static bool OffersH2ThenHttp11(byte[] clientHello) => clientHello.AsSpan().IndexOf("\u0002h2\u0008http/1.1"u8) >= 0;

    private static IEnumerable<string> ProxySettings(string originUrl, string mode, string policy, bool clusterAcceptsAnyCertificate = false) =>
    [
        "--urls=http://127.0.0.1:0",
        clusterAcceptsAnyCertificate ? "--ReverseProxy:Clusters:h2:HttpClient:DangerousAcceptAnyServerCertificate=true" : "--tls.downstreamInsecure=true",
        "--ReverseProxy:Routes:all:ClusterId=h2",
        "--ReverseProxy:Routes:all:Match:Path={**any}",
        $"--ReverseProxy:Clusters:h2:Destinations:origin:Address={originUrl}",
        "--ReverseProxy:Clusters:h2:HttpRequest:Version=2",
        $"--ReverseProxy:Clusters:h2:HttpRequest:VersionPolicy={policy}",
        .. LlrpModes.Settings(mode).Select(setting => "--" + setting),
    ];
}
