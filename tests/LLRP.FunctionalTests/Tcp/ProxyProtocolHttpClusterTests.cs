using System.Buffers.Binary;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Testing;

namespace LLRP.FunctionalTests.Tcp;

/// <summary>
/// An http:// cluster's <c>Metadata:Llrp.ProxyProtocol</c> in raw mode: each upstream connection starts with the PROXY
/// protocol header (HAProxy's proxy-protocol.txt) carrying the client's address and port and the address and port it
/// connected to, then the requests. The header speaks for one client, so its connection serves that client connection
/// only, with either strategy: a client's second request goes over the same connection, without a second header, and
/// another client's request never over it (in the pooled strategy, it is not given back to the pool).
/// </summary>
public sealed class ProxyProtocolHttpClusterTests
{
    public static TheoryData<string> RawModes => LlrpModes.Raw;

    /// <summary>Section 2.1: the v1 line, then the request; a second request on the same client connection follows it on the same upstream connection.</summary>
    [Theory]
    [MemberData(nameof(RawModes))]
    public async Task V1_OneHeaderPerClientConnection_BeforeItsRequests(string mode)
    {
        await using var origin = TcpOrigin.Manual();
        using var root = Settings(origin, "v1");
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);
        await using var client = await proxy.ConnectAsync();
        var port = client.LocalEndPoint.Port;

        await client.SendAsync("GET /first HTTP/1.1\r\nHost: example\r\n\r\n");
        using var upstream = await origin.AcceptAsync();
        var first = await ReceiveHeadAsync(upstream);
        Assert.StartsWith($"PROXY TCP4 127.0.0.1 127.0.0.1 {port} {proxy.Port}\r\nGET /first HTTP/1.1\r\n", first, StringComparison.Ordinal);
        await AnswerAsync(upstream, client);

        await client.SendAsync("GET /second HTTP/1.1\r\nHost: example\r\n\r\n");
        var second = await ReceiveHeadAsync(upstream);
        Assert.StartsWith("GET /second HTTP/1.1\r\n", second, StringComparison.Ordinal);
        await AnswerAsync(upstream, client);
        Assert.Equal(1, origin.Accepted);
    }

    /// <summary>
    /// Section 2.2: a v2 header on each client connection's own upstream connection, with its own source port; the second
    /// client asks once the first client's connection is idle, which a pooled connection would then be lent out from.
    /// </summary>
    [Theory]
    [MemberData(nameof(RawModes))]
    public async Task V2_TwoClientConnections_TwoUpstreamConnections_EachItsClientsHeader(string mode)
    {
        await using var origin = TcpOrigin.Manual();
        using var root = Settings(origin, "v2");
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);
        await using var one = await proxy.ConnectAsync();
        await using var two = await proxy.ConnectAsync();

        await one.SendAsync("GET /one HTTP/1.1\r\nHost: example\r\n\r\n");
        using var first = await origin.AcceptAsync();
        AssertV2Header(await ReceiveBytesAsync(first, 28), one.LocalEndPoint.Port, proxy.Port);
        Assert.StartsWith("GET /one HTTP/1.1\r\n", await ReceiveHeadAsync(first), StringComparison.Ordinal);
        await AnswerAsync(first, one);

        await two.SendAsync("GET /two HTTP/1.1\r\nHost: example\r\n\r\n");
        using var second = await origin.AcceptAsync();
        AssertV2Header(await ReceiveBytesAsync(second, 28), two.LocalEndPoint.Port, proxy.Port);
        Assert.StartsWith("GET /two HTTP/1.1\r\n", await ReceiveHeadAsync(second), StringComparison.Ordinal);
        await AnswerAsync(second, two);
        Assert.Equal(2, origin.Accepted);
    }

    /// <summary>An https:// destination: the header comes first on the TCP connection, then the TLS handshake, then the request inside it.</summary>
    [Theory]
    [InlineData(LlrpModes.RawPerClient)]
    [InlineData(LlrpModes.RawPooled)]
    public async Task V2_HttpsDestination_HeaderBeforeTheHandshake(string mode)
    {
        using var certificate = TestCertificate.Create();
        await using var origin = TcpOrigin.Manual();
        using var root = Settings(origin, "v2", "https", "\"HttpClient\": { \"DangerousAcceptAnyServerCertificate\": true }, ");
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /secure HTTP/1.1\r\nHost: example\r\n\r\n");
        using var upstream = await origin.AcceptAsync();
        AssertV2Header(await ReceiveBytesAsync(upstream, 28), client.LocalEndPoint.Port, proxy.Port);
        await using var tls = new SslStream(new NetworkStream(upstream, ownsSocket: false));
        await Deadline.RunAsync(async token => await tls.AuthenticateAsServerAsync(new SslServerAuthenticationOptions { ServerCertificate = certificate.Certificate }, token), "handshake");
        var head = new StringBuilder();
        var one = new byte[1];
        while (!head.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
        {
            await Deadline.RunAsync(token => tls.ReadExactlyAsync(one, token), "receive");
            head.Append((char)one[0]);
        }

        Assert.StartsWith("GET /secure HTTP/1.1\r\n", head.ToString(), StringComparison.Ordinal);
        await Deadline.RunAsync(token => tls.WriteAsync("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"u8.ToArray(), token), "send");
        var response = await client.ReadResponseAsync();
        Assert.Equal(200, response.StatusCode);
        Assert.Equal("ok", response.BodyText);
    }

    /// <summary>
    /// A cluster at <c>HttpRequest:Version</c> 2 that sends the header keeps HTTP/1.1 clients on raw mode's own connections,
    /// where the header goes (HttpClient's connections are shared among clients): the header, then the HTTP/1.1 request.
    /// </summary>
    [Theory]
    [MemberData(nameof(RawModes))]
    public async Task V1_ClusterAtVersion2_Http11ClientStaysOnTheHeadersConnection(string mode)
    {
        await using var origin = TcpOrigin.Manual();
        using var root = Settings(origin, "v1", cluster: "\"HttpRequest\": { \"Version\": \"2\", \"VersionPolicy\": \"RequestVersionExact\" }, ");
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /first HTTP/1.1\r\nHost: example\r\n\r\n");
        using var upstream = await origin.AcceptAsync();
        var head = await ReceiveHeadAsync(upstream);
        Assert.StartsWith($"PROXY TCP4 127.0.0.1 127.0.0.1 {client.LocalEndPoint.Port} {proxy.Port}\r\nGET /first HTTP/1.1\r\n", head, StringComparison.Ordinal);
        await AnswerAsync(upstream, client);
    }

    /// <summary>One route to cluster <c>c</c>, whose one destination is <paramref name="origin"/>, sending the header of <paramref name="version"/>.</summary>
    private static ContentRoot Settings(TcpOrigin origin, string version, string scheme = "http", string cluster = "")
        => ContentRoot.WithSettings($$"""
            {
              "ReverseProxy": {
                "Routes": { "r": { "ClusterId": "c", "Match": { "Path": "/{**rest}" } } },
                "Clusters": { "c": { {{cluster}}"Destinations": { "d": { "Address": "{{scheme}}://127.0.0.1:{{origin.Port}}/" } }, "Metadata": { "Llrp.ProxyProtocol": "{{version}}" } } }
              }
            }
            """);

    /// <summary>Section 2.2: the signature, 0x21 (v2, PROXY), 0x11 (TCP over IPv4), length 12, 127.0.0.1 twice, the ports.</summary>
    private static void AssertV2Header(byte[] header, int clientPort, int proxyPort)
    {
        Assert.Equal(new byte[] { 0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A }, header[..12]);
        Assert.Equal(new byte[] { 0x21, 0x11, 0x00, 0x0C, 127, 0, 0, 1, 127, 0, 0, 1 }, header[12..24]);
        Assert.Equal(clientPort, BinaryPrimitives.ReadUInt16BigEndian(header.AsSpan(24)));
        Assert.Equal(proxyPort, BinaryPrimitives.ReadUInt16BigEndian(header.AsSpan(26)));
    }

    /// <summary>The origin answers the request it read; the client reads the answer.</summary>
    private static async Task AnswerAsync(Socket upstream, RawHttpClient client)
    {
        await TcpSockets.SendAsync(upstream, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        var response = await client.ReadResponseAsync();
        Assert.Equal(200, response.StatusCode);
        Assert.Equal("ok", response.BodyText);
    }

    /// <summary>Bytes up to and with the blank line that ends a request head (RFC 9112 §2.1), as Latin-1.</summary>
    private static async Task<string> ReceiveHeadAsync(Socket socket)
    {
        var received = new StringBuilder();
        while (!received.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
        {
            received.Append(await TcpSockets.ReceiveAsync(socket, 1));
        }

        return received.ToString();
    }

    private static async Task<byte[]> ReceiveBytesAsync(Socket socket, int count)
        => Encoding.Latin1.GetBytes(await TcpSockets.ReceiveAsync(socket, count));
}
