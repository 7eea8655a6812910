using System.Net;
using System.Net.Sockets;
using LLRP.FunctionalTests.AccessLog;
using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.FunctionalTests.Tcp;
using LLRP.Testing;

namespace LLRP.FunctionalTests.ProxyProtocol;

/// <summary>
/// The proxy's urls with <c>proxyProtocol.accept</c>: each connection's PROXY protocol header (HAProxy's
/// proxy-protocol.txt) is read first, from the trusted networks only, before TLS and the choice of HTTP/1.1 or HTTP/2, and
/// the address it carries is the client's in X-Forwarded-For and the access log. An untrusted peer, or a missing,
/// malformed, cut or late header, closes the connection, counted by reason, and nothing reaches the origin.
/// </summary>
public sealed class ProxyHeaderListenerTests : IDisposable
{
    private static readonly string[] Accepting = ["proxyProtocol.accept=true", "proxyProtocol.trustedNetworks=127.0.0.0/8", "proxyProtocol.timeoutMs=1000"];

    private readonly TestCertificate _certificate = TestCertificate.Create();

    public void Dispose() => _certificate.Dispose();

    /// <summary>proxy-protocol.txt §2.1: the v1 line and the first request in one segment; the request follows the header's exact bytes.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task V1_HeaderAndRequestInOneSegment_XForwardedForIsTheCarriedAddress(string mode)
    {
        var upstream = await ExchangeAsync(mode, Latin1("PROXY TCP4 203.0.113.7 198.51.100.1 4000 80\r\nGET /a HTTP/1.1\r\nHost: example\r\n\r\n"));

        Assert.Equal("/a", upstream.Target);
        Assert.Equal("203.0.113.7", upstream.Head.Get("X-Forwarded-For"));
    }

    /// <summary>proxy-protocol.txt §2.2: v2, TCP over IPv4.</summary>
    [Fact]
    public async Task V2_IPv4_XForwardedForIsTheCarriedAddress()
    {
        var upstream = await ExchangeAsync(LlrpModes.RawPerClient, [.. V2(0x21, 0x11, [.. Address("203.0.113.7"), .. Address("198.51.100.1"), 0x0F, 0xA0, 0x00, 0x50]), .. Latin1(Get)]);

        Assert.Equal("203.0.113.7", upstream.Head.Get("X-Forwarded-For"));
    }

    /// <summary>proxy-protocol.txt §2.2 and §2.2.1: v2, TCP over IPv6, with ALPN and authority TLVs, which are read, not forwarded as HTTP fields.</summary>
    [Theory]
    [InlineData(LlrpModes.RawPerClient)]
    [InlineData(LlrpModes.RawPooled)]
    [InlineData(LlrpModes.HttpClient)]
    public async Task V2_IPv6WithTlvs_XForwardedForIsTheCarriedAddress(string mode)
    {
        byte[] tlvs = [0x01, 0x00, 0x08, .. "http/1.1"u8, 0x02, 0x00, 0x07, .. "example"u8];
        var upstream = await ExchangeAsync(mode, [.. V2(0x21, 0x21, [.. Address("2001:db8::7"), .. Address("2001:db8::1"), 0x0F, 0xA0, 0x01, 0xBB, .. tlvs]), .. Latin1(Get)]);

        Assert.Equal("2001:db8::7", upstream.Head.Get("X-Forwarded-For"));
    }

    /// <summary>proxy-protocol.txt §2.2: the LOCAL command (a sender's health check) keeps the connection's own address.</summary>
    [Fact]
    public async Task V2_Local_TheConnectionsOwnAddress()
    {
        var upstream = await ExchangeAsync(LlrpModes.RawPerClient, [.. V2(0x20, 0x00, []), .. Latin1(Get)]);

        Assert.Equal("127.0.0.1", upstream.Head.Get("X-Forwarded-For"));
    }

    /// <summary>proxy-protocol.txt §2.1: <c>PROXY UNKNOWN</c> keeps the connection's own address.</summary>
    [Fact]
    public async Task V1_Unknown_TheConnectionsOwnAddress()
    {
        var upstream = await ExchangeAsync(LlrpModes.RawPerClient, Latin1("PROXY UNKNOWN\r\n" + Get));

        Assert.Equal("127.0.0.1", upstream.Head.Get("X-Forwarded-For"));
    }

    /// <summary>The access log's client is the carried address; a second request on the connection keeps it.</summary>
    [Fact]
    public async Task V1_AccessLogNamesTheCarriedAddress_ForEveryRequestOfTheConnection()
    {
        using var log = new AccessLogFile();
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, LlrpModes.RawPerClient, [.. Accepting, log.Setting]);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("PROXY TCP6 2001:db8::7 2001:db8::1 4000 80\r\n" + Get);
        Assert.Equal(200, (await client.ReadResponseAsync()).StatusCode);
        await client.SendAsync(Get);
        Assert.Equal(200, (await client.ReadResponseAsync()).StatusCode);

        Assert.All(await log.WaitForLinesAsync(2), line => Assert.StartsWith("2001:db8::7 - - [", line, StringComparison.Ordinal));
        Assert.All(origin.Requests, request => Assert.Equal("2001:db8::7", request.Head.Get("X-Forwarded-For")));
    }

    /// <summary>h2c with prior knowledge after the header (RFC 9113 §3.3): Kestrel's HTTP/2 streams see the carried address.</summary>
    [Theory]
    [InlineData(LlrpModes.RawPooled)]
    [InlineData(LlrpModes.HttpClient)]
    public async Task V2_H2c_XForwardedForIsTheCarriedAddress(string mode)
    {
        await using var proxied = await ProxiedDownstream.StartAsync(mode, Accepting);
        using var client = ProxyHeaderClients.Create(proxied.Proxy.Port);

        using var response = await client.GetAsync($"{proxied.Proxy.Url}/headers");
        var echoed = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpVersion.Version20, response.Version);
        Assert.Contains("x-forwarded-for: 203.0.113.7\n", echoed);
    }

    /// <summary>The header comes before the TLS handshake: TLS with ALPN h2 (RFC 9113 §3.2) and with HTTP/1.1.</summary>
    [Theory]
    [InlineData("2.0")]
    [InlineData("1.1")]
    public async Task V2_Tls_XForwardedForIsTheCarriedAddress(string version)
    {
        await using var proxied = await ProxiedDownstream.StartAsync(LlrpModes.RawPooled, [.. TestHosts.HttpsListener(_certificate), .. Accepting]);
        using var client = ProxyHeaderClients.Create(proxied.Proxy.Port);
        client.DefaultRequestVersion = Version.Parse(version);

        using var response = await client.GetAsync($"https://127.0.0.1:{proxied.Proxy.Port}/headers");
        var echoed = await response.Content.ReadAsStringAsync();

        Assert.Equal(Version.Parse(version), response.Version);
        Assert.Contains("x-forwarded-for: 203.0.113.7\n", echoed);
        Assert.Contains("x-forwarded-proto: https\n", echoed);
    }

    /// <summary>A cluster sending the PROXY protocol carries the accepted address on (HAProxy's accept-proxy then send-proxy).</summary>
    [Fact]
    public async Task V1_AcceptedAddressCarriedOnInTheHeaderSent()
    {
        await using var origin = TcpOrigin.Manual();
        using var root = ContentRoot.WithSettings($$"""
            {
              "ReverseProxy": {
                "Routes": { "r": { "ClusterId": "c", "Match": { "Path": "/{**rest}" } } },
                "Clusters": { "c": { "Destinations": { "d": { "Address": "http://127.0.0.1:{{origin.Port}}/" } }, "Metadata": { "Llrp.ProxyProtocol": "v1" } } }
              }
            }
            """);
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, LlrpModes.RawPerClient, Accepting);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("PROXY TCP4 203.0.113.7 198.51.100.1 4000 80\r\n" + Get);
        using var upstream = await origin.AcceptAsync();

        const string expected = "PROXY TCP4 203.0.113.7 198.51.100.1 4000 80\r\nGET / HTTP/1.1\r\n";
        Assert.Equal(expected, await TcpSockets.ReceiveAsync(upstream, expected.Length));
    }

    [Fact]
    public async Task Untrusted_ClosedUnforwarded()
        => await AssertRefusedAsync(["proxyProtocol.accept=true", "proxyProtocol.trustedNetworks=10.0.0.0/8"], Latin1("PROXY TCP4 203.0.113.7 198.51.100.1 4000 80\r\n" + Get), "proxy_header_untrusted");

    /// <summary>No header (a receiver must not guess, proxy-protocol.txt §2), a bad port (§2.1), a bad v2 version (§2.2).</summary>
    [Theory]
    [InlineData("GET / HTTP/1.1\r\nHost: example\r\n\r\n")]
    [InlineData("PROXY TCP4 203.0.113.7 198.51.100.1 4000 99999\r\nGET / HTTP/1.1\r\nHost: example\r\n\r\n")]
    [InlineData("\r\n\r\n\0\r\nQUIT\n\u0031\u0011\0\u000C")]
    public async Task Malformed_ClosedUnforwarded(string sent)
        => await AssertRefusedAsync(Accepting, Latin1(sent), "proxy_header_invalid");

    [Fact]
    public async Task Truncated_ClientEndsMidHeader_ClosedUnforwarded()
        => await AssertRefusedAsync(Accepting, Latin1("PROXY TCP4 203.0"), "proxy_header_truncated", finish: true);

    [Fact]
    public async Task Slow_NoWholeHeaderWithinTheTimeout_ClosedUnforwarded()
        => await AssertRefusedAsync(["proxyProtocol.accept=true", "proxyProtocol.trustedNetworks=127.0.0.0/8", "proxyProtocol.timeoutMs=200"], Latin1("PROXY TCP4 "), "proxy_header_timeout");

    /// <summary>A TLS listener refuses alike, before its handshake.</summary>
    [Fact]
    public async Task Tls_Malformed_ClosedBeforeTheHandshake()
        => await AssertRefusedAsync([.. TestHosts.HttpsListener(_certificate), .. Accepting], Latin1(Get), "proxy_header_invalid");

    private const string Get = "GET / HTTP/1.1\r\nHost: example\r\n\r\n";

    private static byte[] Latin1(string text) => System.Text.Encoding.Latin1.GetBytes(text);

    private static byte[] Address(string text) => IPAddress.Parse(text).GetAddressBytes();

    private static byte[] V2(byte versionCommand, byte family, byte[] block) => ProxyHeaderClients.V2(versionCommand, family, block);

    /// <summary>
    /// proxy-protocol.txt §2.2.1: the ALPN and authority TLVs of the accepted v2 header are passed on in the v2 header the
    /// cluster sends (as HAProxy passes on what it knows), after the carried addresses, and written in the access log line.
    /// </summary>
    [Fact]
    public async Task V2_AcceptedAlpnAndAuthority_CarriedOnInTheHeaderSentAndLogged()
    {
        await using var origin = TcpOrigin.Manual();
        using var log = new AccessLogFile();
        using var root = ContentRoot.WithSettings($$"""
            {
              "ReverseProxy": {
                "Routes": { "r": { "ClusterId": "c", "Match": { "Path": "/{**rest}" } } },
                "Clusters": { "c": { "Destinations": { "d": { "Address": "http://127.0.0.1:{{origin.Port}}/" } }, "Metadata": { "Llrp.ProxyProtocol": "v2" } } }
              }
            }
            """);
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, LlrpModes.RawPerClient, [.. Accepting, log.Setting]);
        await using var client = await proxy.ConnectAsync();
        byte[] addresses = [.. Address("203.0.113.7"), .. Address("198.51.100.1"), 0x0F, 0xA0, 0x00, 0x50];
        byte[] tlvs = [0x02, 0x00, 0x0B, .. "example.com"u8, 0x01, 0x00, 0x08, .. "http/1.1"u8];

        await client.SendAsync((byte[])[.. V2(0x21, 0x11, [.. addresses, .. tlvs]), .. Latin1(Get)]);
        using var upstream = await origin.AcceptAsync();

        byte[] expected = [.. V2(0x21, 0x11, [.. addresses, 0x01, 0x00, 0x08, .. "http/1.1"u8, 0x02, 0x00, 0x0B, .. "example.com"u8]), .. "GET / HTTP/1.1\r\n"u8];
        Assert.Equal(expected, Latin1(await TcpSockets.ReceiveAsync(upstream, expected.Length)));
        await TcpSockets.SendAsync(upstream, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        Assert.Equal(200, (await client.ReadResponseAsync()).StatusCode);
        Assert.EndsWith(" proxy_protocol_tlv_alpn=http/1.1 proxy_protocol_tlv_authority=example.com", Assert.Single(await log.WaitForLinesAsync(1)), StringComparison.Ordinal);
    }

    /// <summary>Sends <paramref name="sent"/> on one connection to a proxy accepting the header; returns the request the origin got.</summary>
    private static async Task<ReceivedRequest> ExchangeAsync(string mode, byte[] sent)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, Accepting);
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync(sent);
        var response = await client.ReadResponseAsync();
        Assert.True(response.StatusCode == 200, $"Expected 200, got:\n{response}");
        return origin.SingleRequest();
    }

    private static async Task AssertRefusedAsync(string[] settings, byte[] sent, string reason, bool finish = false)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, LlrpModes.RawPerClient, settings);
        using var meters = new ProxyMeterRecorder(proxy);
        using var client = await TcpSockets.ConnectAsync(proxy.Port);
        await client.SendAsync(sent, SocketFlags.None);
        if (finish)
        {
            client.Shutdown(SocketShutdown.Send);
        }

        await TcpSockets.AssertEndedAsync(client);
        Assert.Equal(1, meters.Sum("llrp.client.proxy_header_refused", "reason", reason));
        Assert.Empty(origin.Connections);
    }
}
