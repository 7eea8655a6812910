using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Testing;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// The HTTP/2 front end over real sockets, in every mode: h2c with prior knowledge (RFC 9113 §3.3) and ALPN h2 (§3.2) on
/// the proxy's own port, the forwarding rules of HTTP/1.1 (RFC 9110 §7.6), bodies streamed both ways, and failures
/// answered or reset.
/// </summary>
public sealed class Http2ForwardingTests : IDisposable
{
    private readonly TestCertificate _certificate = TestCertificate.Create();

    public void Dispose() => _certificate.Dispose();

    // RFC 9113 §3.3 (prior knowledge) and RFC 9110 §7.6.3: an HTTP/2 answer, and the origin told who asked, over which scheme, through whom.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task PriorKnowledge_Http2AnswerCarryingForwardedFields(string mode)
    {
        await using var proxied = await ProxiedDownstream.StartAsync(mode);
        using var client = Http2Clients.Create();

        using var response = await client.GetAsync($"{proxied.Proxy.Url}/headers");
        var echoed = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpVersion.Version20, response.Version);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("x-forwarded-for: 127.0.0.1\n", echoed);
        Assert.Contains("x-forwarded-proto: http\n", echoed);
        Assert.Contains($"x-forwarded-host: {proxied.Proxy.Authority}\n", echoed);
        Assert.Contains("via: 2 llrp\n", echoed);
        Assert.Contains($"host: {proxied.Downstream.Authority}\n", echoed);
    }

    // RFC 9113 §3.2: over TLS, h2 is chosen by ALPN; the origin hears https.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task Tls_AlpnH2_Http2AnswerWithForwardedProtoHttps(string mode)
    {
        await using var proxied = await ProxiedDownstream.StartAsync(mode, TestHosts.HttpsListener(_certificate));
        using var client = Http2Clients.Create();

        using var response = await client.GetAsync($"https://127.0.0.1:{proxied.Proxy.Port}/headers");
        var echoed = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpVersion.Version20, response.Version);
        Assert.Contains("x-forwarded-for: 127.0.0.1\n", echoed);
        Assert.Contains("x-forwarded-proto: https\n", echoed);
    }

    // RFC 7301 §3.2: the server picks from what the client offers; a client offering only http/1.1 keeps it.
    [Fact]
    public async Task Tls_AlpnOffersH2AndHttp11()
    {
        await using var proxied = await ProxiedDownstream.StartAsync(LlrpModes.RawPooled, TestHosts.HttpsListener(_certificate));

        Assert.Equal(SslApplicationProtocol.Http2, await NegotiateAsync(proxied.Proxy.Port, SslApplicationProtocol.Http2, SslApplicationProtocol.Http11));
        Assert.Equal(SslApplicationProtocol.Http11, await NegotiateAsync(proxied.Proxy.Port, SslApplicationProtocol.Http11));
    }

    // Both front ends on one port at once: HTTP/1.1 on LLRP's own session, HTTP/2 on each HTTP/2 server.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task Http11AndHttp2Clients_OnOnePortAtOnce(string mode)
    {
        await using var proxied = await ProxiedDownstream.StartAsync(mode);
        using var h2 = Http2Clients.Create();
        await using var h1 = await proxied.ConnectAsync();

        var http2 = Enumerable.Range(0, 20).Select(i => h2.GetStringAsync($"{proxied.Proxy.Url}/?s={100 + i}")).ToArray();
        for (var i = 0; i < 20; i++)
        {
            await h1.SendAsync($"GET /?s={i} HTTP/1.1\r\nHost: client.test\r\n\r\n");
            var response = await h1.ReadResponseAsync();
            Assert.Equal(200, response.StatusCode);
            Assert.Equal(i, response.Body.Length);
        }

        var bodies = await Task.WhenAll(http2);
        Assert.Equal(Enumerable.Range(0, 20).Select(i => 100 + i), bodies.Select(body => body.Length));
    }

    // RFC 9110 §7.6: each stream is forwarded with its own fields, target and response, though streams one after another
    // reuse the same buffers and caches.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task StreamsOneAfterAnother_EachWithItsOwnFields(string mode)
    {
        await using var proxied = await ProxiedDownstream.StartAsync(mode);
        using var client = Http2Clients.Create();

        var first = await EchoedHeadersAsync(client, $"{proxied.Proxy.Url}/headers", ("x-first", "a"), ("x-shared", "1"));
        var second = await EchoedHeadersAsync(client, $"{proxied.Proxy.Url}/headers?q=2", ("x-shared", "2"), ("x-second", "b"));
        var sized = await client.GetStringAsync($"{proxied.Proxy.Url}/?s=7");
        var third = await EchoedHeadersAsync(client, $"{proxied.Proxy.Url}/headers");

        Assert.Contains("x-first: a\n", first);
        Assert.Contains("x-shared: 1\n", first);
        Assert.DoesNotContain("x-first", second);
        Assert.Contains("x-shared: 2\n", second);
        Assert.Contains("x-second: b\n", second);
        Assert.Equal(7, sized.Length);
        Assert.DoesNotContain("x-first", third);
        Assert.DoesNotContain("x-second", third);
        Assert.DoesNotContain("x-shared", third);
        Assert.All(new[] { first, second, third }, echoed => Assert.Contains("x-forwarded-for: 127.0.0.1\n", echoed));
    }

    // RFC 9113 §5.1.2: the streams a client opens in one write, whole GETs and a POST whose body is still coming, are each
    // answered with their own response, wherever the server runs each (on transport=epoll, a whole request on the event
    // loop that read it, one still receiving its body on the thread pool).
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task StreamsOpenedInOneWrite_WholeAndStillReceivingBody_EachAnswered(string mode)
    {
        await using var proxied = await ProxiedDownstream.StartAsync(mode);
        await using var wire = await Http2Wire.ConnectAsync(proxied.Proxy.Port);
        const int Gets = 10, Post = 2 * Gets + 1;
        var batch = new List<byte>();
        for (var i = 0; i < Gets; i++)
        {
            var fields = Http2Wire.FieldBlock(Http2Wire.Request("GET", proxied.Proxy.Authority, $"/?s={20 + i}"));
            batch.AddRange(Http2Wire.FrameBytes(Http2Wire.Headers, Http2Wire.EndHeaders | Http2Wire.EndStream, (2 * i) + 1, fields));
        }

        var post = Http2Wire.FieldBlock(Http2Wire.Request("POST", proxied.Proxy.Authority, "/echo", ("content-length", "6")));
        batch.AddRange(Http2Wire.FrameBytes(Http2Wire.Headers, Http2Wire.EndHeaders, Post, post));
        batch.AddRange(Http2Wire.FrameBytes(Http2Wire.Data, 0, Post, "abc"u8.ToArray()));

        await wire.SendRawAsync([.. batch]);
        var outcomes = await ReadStreamsAsync(wire, Gets + 1, afterFirstEnd: () => wire.SendDataAsync(Post, "def"u8.ToArray(), endStream: true));

        for (var i = 0; i < Gets; i++)
        {
            Assert.Equal(200, outcomes[(2 * i) + 1].Status);
            Assert.Equal(20 + i, outcomes[(2 * i) + 1].Body.Length);
        }

        Assert.Equal(200, outcomes[Post].Status);
        Assert.Equal("abcdef", outcomes[Post].Body.ToString());
    }

    // A request body is streamed to the origin and the response streamed back, byte for byte.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task PostBody_EchoedWhole(string mode)
    {
        await using var proxied = await ProxiedDownstream.StartAsync(mode);
        using var client = Http2Clients.Create();
        var body = new byte[1 << 20];
        new Random(19).NextBytes(body);

        using var response = await client.PostAsync($"{proxied.Proxy.Url}/echo", new ByteArrayContent(body));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(body, await response.Content.ReadAsByteArrayAsync());
    }

    // RFC 9110 §6.5: trailers an HTTP/1.1 origin sends after its chunked body reach the HTTP/2 client as trailers.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task ResponseTrailers_Relayed(string mode)
    {
        await using var origin = ScriptedOrigin.Respond("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: grpc-status\r\n\r\n2\r\nok\r\n0\r\ngrpc-status: 0\r\nx-checksum: 42\r\n\r\n");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var client = Http2Clients.Create();

        using var response = await client.GetAsync($"{proxy.Url}/", HttpCompletionOption.ResponseHeadersRead);
        Assert.Equal("ok", await response.Content.ReadAsStringAsync());

        Assert.Equal("0", Assert.Single(response.TrailingHeaders.GetValues("grpc-status")));
        Assert.Equal("42", Assert.Single(response.TrailingHeaders.GetValues("x-checksum")));
    }

    // RFC 9113 §8.1: a response the destination breaks off after it started cannot look complete: the stream is reset.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task OriginFailsMidBody_StreamReset(string mode)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b");
            connection.Reset();
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var client = Http2Clients.Create();

        var failure = await Assert.ThrowsAnyAsync<Exception>(async () =>
        {
            using var response = await client.GetAsync($"{proxy.Url}/", HttpCompletionOption.ResponseHeadersRead);
            await (await response.Content.ReadAsStreamAsync()).CopyToAsync(Stream.Null);
        });

        var reset = failure as HttpProtocolException ?? failure.InnerException as HttpProtocolException;
        Assert.True(reset is not null, failure.ToString());
        Assert.Equal(0x2, reset.ErrorCode);
    }

    // Before a response started, a destination that cannot be reached is a 502, as on HTTP/1.1.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task DestinationUnreachable_502(string mode)
    {
        await using var proxy = await TestHosts.StartProxyAsync($"http://127.0.0.1:{LoopbackPort.Closed()}", mode);
        using var client = Http2Clients.Create();

        using var response = await client.GetAsync($"{proxy.Url}/");

        Assert.Equal(HttpVersion.Version20, response.Version);
        Assert.Equal(HttpStatusCode.BadGateway, response.StatusCode);
    }

    // gRPC over HTTP/2 ("Responses"): a call that fails before any response is a trailers-only response with grpc-status 14 (UNAVAILABLE).
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task DestinationUnreachable_GrpcCallGetsStatus14(string mode)
    {
        await using var proxy = await TestHosts.StartProxyAsync($"http://127.0.0.1:{LoopbackPort.Closed()}", mode);
        using var client = Http2Clients.Create();
        using var request = new HttpRequestMessage(HttpMethod.Post, $"{proxy.Url}/greet.Greeter/SayHello")
        {
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
            Content = new ByteArrayContent([0, 0, 0, 0, 0]) { Headers = { { "Content-Type", "application/grpc" } } },
        };
        request.Headers.TE.ParseAdd("trailers");

        using var response = await client.SendAsync(request);

        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{response}\n{await response.Content.ReadAsStringAsync()}");
        Assert.Equal("14", Assert.Single(response.Headers.GetValues("grpc-status")));
        Assert.Empty(await response.Content.ReadAsByteArrayAsync());
    }

    // The admin endpoints share the application's pipeline, but a proxy port's HTTP/2 request is the proxy's: forwarded, never answered by them.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task AdminPaths_NotReachableThroughProxyPort(string server)
    {
        await using var origin = ScriptedOrigin.Respond("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\norigin");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, Http2Servers.Mode(server, LlrpModes.RawPooled), "admin.urls=http://127.0.0.1:0");
        using var client = Http2Clients.Create();

        foreach (var path in new[] { "/metrics", "/healthz" })
        {
            Assert.Equal("origin", await client.GetStringAsync($"{proxy.Url}{path}"));
        }

        Assert.Equal(["/metrics", "/healthz"], origin.Requests.Select(request => request.Target));
    }

    private static async Task<SslApplicationProtocol> NegotiateAsync(int port, params SslApplicationProtocol[] offered)
    {
        using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
        await Deadline.RunAsync(token => socket.ConnectAsync("127.0.0.1", port, token), "Connecting");
        await using var tls = new SslStream(new NetworkStream(socket));
        await Deadline.RunAsync(token => new ValueTask(tls.AuthenticateAsClientAsync(new SslClientAuthenticationOptions
        {
            TargetHost = "localhost",
            ApplicationProtocols = [.. offered],
            RemoteCertificateValidationCallback = (_, _, _, _) => true,
        }, token)), "The TLS handshake");
        return tls.NegotiatedApplicationProtocol;
    }

    private static async Task<string> EchoedHeadersAsync(HttpClient client, string url, params (string Name, string Value)[] fields)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, url) { Version = HttpVersion.Version20, VersionPolicy = HttpVersionPolicy.RequestVersionExact };
        foreach (var (name, value) in fields)
        {
            request.Headers.Add(name, value);
        }

        using var response = await client.SendAsync(request);
        Assert.Equal(HttpVersion.Version20, response.Version);
        return await response.Content.ReadAsStringAsync();
    }

    /// <summary>
    /// Reads frames until <paramref name="count"/> streams ended (END_STREAM or RST_STREAM), each stream's status and
    /// body by its id; <paramref name="afterFirstEnd"/> runs once the first has ended.
    /// </summary>
    private static async Task<Dictionary<int, Http2Wire.StreamOutcome>> ReadStreamsAsync(Http2Wire wire, int count, Func<Task> afterFirstEnd)
    {
        var outcomes = new Dictionary<int, Http2Wire.StreamOutcome>();
        var ended = 0;
        while (ended < count)
        {
            var frame = await wire.ReadFrameAsync();
            if (frame.StreamId == 0 || frame.Type is not (Http2Wire.Headers or Http2Wire.Data or Http2Wire.RstStream))
            {
                continue;
            }

            var outcome = outcomes.TryGetValue(frame.StreamId, out var known) ? known : outcomes[frame.StreamId] = new Http2Wire.StreamOutcome();
            if (frame.Type == Http2Wire.Headers)
            {
                outcome.Status ??= Http2Wire.StatusOf(frame.Payload);
            }
            else if (frame.Type == Http2Wire.Data)
            {
                outcome.Body.Append(Encoding.Latin1.GetString(frame.Payload));
            }

            if (frame.Type == Http2Wire.RstStream || (frame.Flags & Http2Wire.EndStream) != 0)
            {
                if (++ended == 1)
                {
                    await afterFirstEnd();
                }
            }
        }

        return outcomes;
    }
}
