using System.Net.Sockets;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Testing;

namespace LLRP.FunctionalTests.Tls;

/// <summary>
/// https urls: Kestrel terminates TLS before the proxy's connection handler, which reads and forwards plaintext, and the
/// forwarded request says the client came over https (RFC 9110 §4.2.2).
/// </summary>
public sealed class HttpsListenerTests : IDisposable
{
    private readonly TestCertificate _certificate = TestCertificate.Create();

    public void Dispose() => _certificate.Dispose();

    // RFC 9110 §4.2.2 and §7.6.3: the proxy tells the origin the scheme the client used.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task HttpsClient_ForwardedWithXForwardedProtoHttps(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, TestHosts.HttpsListener(_certificate));
        await using var client = await RawHttpClient.ConnectTlsAsync(proxy.Port, _certificate.Certificate);

        await client.SendAsync("GET /over-tls?x=1 HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: http\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        Assert.Equal("ok", response.BodyText);
        var request = origin.SingleRequest();
        Assert.StartsWith("GET /over-tls?x=1 HTTP/1.1", request.Head.Raw, StringComparison.Ordinal);
        Assert.Equal("https", Assert.Single(request.Head.GetAll("X-Forwarded-Proto")));
    }

    [Fact]
    public async Task HttpsAndHttpUrls_EachConnectionForwardsItsOwnScheme()
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(
            origin.Url,
            LlrpModes.RawPooled,
            [.. TestHosts.HttpsListener(_certificate), "urls=https://127.0.0.1:0;http://127.0.0.1:0"]);
        var httpPort = new Uri(Assert.Single(proxy.Addresses, address => address.StartsWith("http://", StringComparison.Ordinal))).Port;

        await using (var tls = await RawHttpClient.ConnectTlsAsync(proxy.Port, _certificate.Certificate))
        {
            await tls.SendAsync("GET /1 HTTP/1.1\r\nHost: localhost\r\n\r\n");
            Assert.Equal(200, (await tls.ReadResponseAsync()).StatusCode);
        }

        await using (var plain = await RawHttpClient.ConnectAsync(httpPort))
        {
            await plain.SendAsync("GET /2 HTTP/1.1\r\nHost: localhost\r\n\r\n");
            Assert.Equal(200, (await plain.ReadResponseAsync()).StatusCode);
        }

        Assert.Equal(["https", "http"], origin.Requests.Select(request => request.Head.Get("X-Forwarded-Proto")));
    }

    // The TLS middleware runs before the proxy's handler: a client that starts a TLS record but is not speaking TLS is
    // dropped there, and the listener goes on serving.
    [Fact]
    public async Task NotAClientHello_ConnectionDroppedNextClientServed()
    {
        const string garbage = "\u0016\u0003\u0001\u0000\u0005garbage-after-a-record-header";
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, LlrpModes.RawPooled, TestHosts.HttpsListener(_certificate));

        await using (var plain = await proxy.ConnectAsync())
        {
            await plain.SendAsync(garbage);
            var answer = await ReadUntilClosedAsync(plain);
            Assert.DoesNotContain("HTTP/1.1", System.Text.Encoding.Latin1.GetString(answer), StringComparison.Ordinal);
        }

        await using var client = await RawHttpClient.ConnectTlsAsync(proxy.Port, _certificate.Certificate);
        await client.SendAsync("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
        Assert.Equal(200, (await client.ReadResponseAsync()).StatusCode);
        Assert.Single(origin.Requests);
    }

    // Plain HTTP sent to an https port (the wrong scheme in a client's URL) is answered, not dropped without a word.
    [Theory]
    [InlineData("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")]
    [InlineData("G")]
    public async Task PlainHttp_400SaysThePortSpeaksTlsNextClientServed(string request)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, LlrpModes.RawPooled, TestHosts.HttpsListener(_certificate));

        await using (var plain = await proxy.ConnectAsync())
        {
            await plain.SendAsync(request);
            var response = await plain.ReadResponseAsync();

            Assert.Equal(400, response.StatusCode);
            Assert.Equal("close", response.Head.Get("Connection"));
            Assert.Contains("this port speaks TLS", response.BodyText, StringComparison.Ordinal);
            await plain.AssertClosedByPeerAsync();
        }

        await using var client = await RawHttpClient.ConnectTlsAsync(proxy.Port, _certificate.Certificate);
        await client.SendAsync("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
        Assert.Equal(200, (await client.ReadResponseAsync()).StatusCode);
        Assert.Single(origin.Requests);
    }

    /// <summary>Whatever the listener sent before it closed (a TLS alert at most), or nothing when it reset the connection.</summary>
    private static async Task<byte[]> ReadUntilClosedAsync(RawHttpClient client)
    {
        try
        {
            return await client.ReadToEndAsync();
        }
        catch (IOException e) when (e.InnerException is SocketException { SocketErrorCode: SocketError.ConnectionReset })
        {
            return [];
        }
    }
}
