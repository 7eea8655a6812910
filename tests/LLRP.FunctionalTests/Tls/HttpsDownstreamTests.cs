using System.Text;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Testing;

namespace LLRP.FunctionalTests.Tls;

/// <summary>
/// https downstreams (RFC 9110 §4.2.2) in every mode: the bundled origin behind TLS with a self-signed certificate,
/// trusted only with <c>tls.downstreamInsecure=true</c>; raw mode's TLS connections pooled and their sessions resumed.
/// </summary>
public sealed class HttpsDownstreamTests : IDisposable
{
    private const string Insecure = "tls.downstreamInsecure=true";
    private const int BodySize = 1_000_000;

    private readonly TestCertificate _certificate = TestCertificate.Create();

    public static TheoryData<string, bool> ModesAndFramings => LlrpModes.Cross(false, true);

    public void Dispose() => _certificate.Dispose();

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task HttpClientToHttpsOrigin_Insecure_Forwarded(string mode)
    {
        await using var origin = await TestHosts.StartTlsDownstreamAsync(_certificate);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, Insecure);
        await using var client = await proxy.ConnectAsync();

        var response = await GetHeadersAsync(client);

        Assert.Equal(200, response.StatusCode);
        Assert.Contains($"host: {origin.Authority}\n", response.BodyText, StringComparison.Ordinal);
        Assert.Contains("x-forwarded-proto: http\n", response.BodyText, StringComparison.Ordinal);
    }

    // RFC 9110 §4.2.2: an https origin must present a certificate valid for its name; a self-signed one is not trusted.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task UntrustedOriginCertificate_502(string mode)
    {
        await using var origin = await TestHosts.StartTlsDownstreamAsync(_certificate);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        var response = await GetHeadersAsync(client);

        Assert.Equal(502, response.StatusCode);
        Assert.Equal("close", response.Head.Get("Connection"));
        Assert.Contains("TLS handshake", response.BodyText, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task HttpsClientToHttpsOrigin_Forwarded(string mode)
    {
        await using var origin = await TestHosts.StartTlsDownstreamAsync(_certificate);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, [.. TestHosts.HttpsListener(_certificate), Insecure]);
        await using var client = await RawHttpClient.ConnectTlsAsync(proxy.Port, _certificate.Certificate);

        var first = await GetHeadersAsync(client);
        var second = await GetHeadersAsync(client);

        Assert.Equal(200, first.StatusCode);
        Assert.Equal(200, second.StatusCode);
        Assert.Contains("x-forwarded-proto: https\n", second.BodyText, StringComparison.Ordinal);
    }

    // RFC 9112 §6.2, §7.1: bodies of either framing cross both TLS legs intact, in both directions.
    [Theory]
    [MemberData(nameof(ModesAndFramings))]
    public async Task Bodies_IntactOverTlsBothSides(string mode, bool chunked)
    {
        var body = new byte[BodySize];
        new Random(BodySize).NextBytes(body);
        await using var origin = await TestHosts.StartTlsDownstreamAsync(_certificate);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, [.. TestHosts.HttpsListener(_certificate), Insecure]);
        await using var client = await RawHttpClient.ConnectTlsAsync(proxy.Port, _certificate.Certificate);

        var sending = PostAsync(client, "/echo", body, chunked);
        var echo = await client.ReadResponseAsync();
        await sending;
        await client.SendAsync(chunked
            ? $"GET /chunked?s={BodySize}&n=7 HTTP/1.1\r\nHost: localhost\r\n\r\n"
            : $"GET /?s={BodySize} HTTP/1.1\r\nHost: localhost\r\n\r\n");
        var download = await client.ReadResponseAsync();

        Assert.Equal(200, echo.StatusCode);
        Assert.Equal(chunked ? BodyFraming.Chunked : BodyFraming.ContentLength, echo.Framing);
        Assert.Equal(DownstreamBody.Sha256(body), DownstreamBody.Sha256(echo.Body));
        Assert.Equal(200, download.StatusCode);
        Assert.Equal(chunked ? BodyFraming.Chunked : BodyFraming.ContentLength, download.Framing);
        Assert.Equal(DownstreamBody.Sha256(DownstreamBody.Pattern(BodySize)), DownstreamBody.Sha256(download.Body));
    }

    // Pooled TLS connections stay pooled: requests of two client connections, one after the other, share one.
    [Fact]
    public async Task RawPooled_TlsConnectionReusedAcrossRequestsAndClients()
    {
        await using var origin = await TestHosts.StartTlsDownstreamAsync(_certificate);
        await using var relay = TcpRelay.Start(origin.Port);
        await using var proxy = await TestHosts.StartProxyAsync($"https://127.0.0.1:{relay.Port}", LlrpModes.RawPooled, Insecure);

        for (var clients = 0; clients < 2; clients++)
        {
            await using var client = await proxy.ConnectAsync();
            for (var requests = 0; requests < 3; requests++)
            {
                Assert.Equal(200, (await GetHeadersAsync(client)).StatusCode);
            }
        }

        Assert.Single(relay.Connections);
    }

    // The hellos on the wire (RFC 8446 §4.1.2, §4.1.3): SNI carries the downstream's host name, and the second
    // connection to the same downstream offers the first one's session (pre_shared_key), which the origin accepts.
    [Fact]
    public async Task Raw_SniIsTheHostName_SessionResumedOnTheNextConnection()
    {
        await using var origin = await TestHosts.StartTlsDownstreamAsync(_certificate);
        await using var relay = TcpRelay.Start(origin.Port);
        await using var proxy = await TestHosts.StartProxyAsync($"https://localhost:{relay.Port}", LlrpModes.RawPerClient, Insecure);

        for (var clients = 0; clients < 2; clients++)
        {
            await using var client = await proxy.ConnectAsync();
            Assert.Equal(200, (await GetHeadersAsync(client)).StatusCode);
        }

        Assert.Equal(2, relay.Connections.Count);
        var (firstClientHello, firstServerHello) = Hellos(relay.Connections[0]);
        var (secondClientHello, secondServerHello) = Hellos(relay.Connections[1]);
        Assert.Equal("localhost", TlsHello.HostName(firstClientHello[TlsHello.ServerName]));
        Assert.False(firstServerHello.ContainsKey(TlsHello.PreSharedKey), "The first connection was resumed from nothing.");
        Assert.True(secondClientHello.ContainsKey(TlsHello.PreSharedKey), "The second connection offered no session to resume.");
        Assert.True(secondServerHello.ContainsKey(TlsHello.PreSharedKey), "The origin did not resume the session offered.");
    }

    // RFC 6066 §3: a literal IP address is not sent as a server name.
    [Fact]
    public async Task Raw_AddressLiteral_NoSni()
    {
        await using var origin = await TestHosts.StartTlsDownstreamAsync(_certificate);
        await using var relay = TcpRelay.Start(origin.Port);
        await using var proxy = await TestHosts.StartProxyAsync($"https://127.0.0.1:{relay.Port}", LlrpModes.RawPooled, Insecure);
        await using var client = await proxy.ConnectAsync();

        Assert.Equal(200, (await GetHeadersAsync(client)).StatusCode);

        Assert.False(Hellos(Assert.Single(relay.Connections)).Client.ContainsKey(TlsHello.ServerName));
    }

    // The connect timeout covers the TLS handshake: an origin that accepts and never answers the ClientHello is a 504.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task HandshakeNeverAnswered_504WithinConnectTimeout(string mode)
    {
        await using var origin = ScriptedOrigin.Start(connection => connection.Reader.ReadToEndAsync());
        await using var proxy = await TestHosts.StartProxyAsync($"https://{origin.Authority}", mode, Insecure, "timeouts.connectMs=300");
        await using var client = await proxy.ConnectAsync();

        var response = await GetHeadersAsync(client);

        Assert.Equal(504, response.StatusCode);
    }

    private static (Dictionary<int, byte[]> Client, Dictionary<int, byte[]> Server) Hellos(RelayedConnection connection)
        => (TlsHello.Extensions(connection.FromClient), TlsHello.Extensions(connection.FromServer));

    private static async Task<RawHttpResponse> GetHeadersAsync(RawHttpClient client)
    {
        await client.SendAsync("GET /headers HTTP/1.1\r\nHost: localhost\r\n\r\n");
        return await client.ReadResponseAsync();
    }

    private static async Task PostAsync(RawHttpClient client, string target, byte[] body, bool chunked)
    {
        await Task.Yield();
        var framing = chunked ? "Transfer-Encoding: chunked" : $"Content-Length: {body.Length}";
        await client.SendAsync($"POST {target} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n{framing}\r\n\r\n");
        const int piece = 64 * 1024;
        for (var sent = 0; sent < body.Length; sent += piece)
        {
            var size = Math.Min(piece, body.Length - sent);
            if (chunked)
            {
                await client.SendAsync(Encoding.ASCII.GetBytes($"{size:x}\r\n"));
            }

            await client.SendAsync(body.AsMemory(sent, size));
            if (chunked)
            {
                await client.SendAsync("\r\n"u8.ToArray());
            }
        }

        if (chunked)
        {
            await client.SendAsync("0\r\n\r\n");
        }
    }
}
