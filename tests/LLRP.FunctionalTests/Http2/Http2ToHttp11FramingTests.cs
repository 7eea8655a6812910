using System.Net;
using System.Text;
using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// HTTP/2 request streams forwarded to an HTTP/1.1 destination, in every mode (in raw mode with pooled connections over
/// raw mode's own connections, elsewhere over HttpClient): the request body's framing as HTTP/1.1 needs it, the response
/// framing read per RFC 9112 §6.3, and the upstream connection kept only at a message boundary.
/// </summary>
public sealed class Http2ToHttp11FramingTests
{
    /// <summary>Raw mode's pooled strategy over each transport, on every HTTP/2 server.</summary>
    public static TheoryData<string> PooledModes => new(Http2Servers.OnEvery([LlrpModes.RawPooled, LlrpModes.RawPooledSockets]));

    /// <summary><see cref="PooledModes"/>, the stale connection closed cleanly or reset.</summary>
    public static TheoryData<string, bool> StaleModes => LlrpModes.Cross(Http2Servers.OnEvery([LlrpModes.RawPooled, LlrpModes.RawPooledSockets]), false, true);

    // RFC 9113 §8.1.1 and RFC 9112 §7.1: an HTTP/2 request body without content-length reaches an HTTP/1.1 origin
    // chunked, whole, and the origin's answer comes back.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task BodyWithoutLength_SentChunked(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(request => $"HTTP/1.1 200 OK\r\nContent-Length: {request.Body.Length}\r\n\r\n{request.BodyText}");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var client = Http2Clients.Create();
        var body = new string('x', 40_000) + "end";
        using var content = new StreamContent(new MemoryStream(Encoding.ASCII.GetBytes(body)));
        content.Headers.ContentLength = null;

        using var response = await client.PostAsync($"{proxy.Url}/upload", content);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(body, await response.Content.ReadAsStringAsync());
        var received = origin.SingleRequest();
        Assert.Equal(BodyFraming.Chunked, received.Framing);
        Assert.Equal(body, received.BodyText);
    }

    // RFC 9112 §6.3: a response to HEAD and a 204 have no body whatever their fields say, a chunked body ends at its last
    // chunk (its trailer section read too), a Content-Length body after its length: each response ends at its
    // boundary, so the next stream is answered on the same upstream connection, never with the previous one's bytes.
    [Theory]
    [MemberData(nameof(PooledModes))]
    public async Task SuccessiveStreams_EachAnsweredAtItsBoundary_OnOneUpstreamConnection(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(request => request.Target switch
        {
            _ when request.Method == "HEAD" => "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
            "/chunked" => "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\nx-sum: 1\r\n\r\n",
            "/empty" => "HTTP/1.1 204 No Content\r\n\r\n",
            _ => "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody",
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var client = Http2Clients.Create();

        using var headRequest = new HttpRequestMessage(HttpMethod.Head, $"{proxy.Url}/") { Version = HttpVersion.Version20, VersionPolicy = HttpVersionPolicy.RequestVersionExact };
        using var head = await client.SendAsync(headRequest);
        var chunked = await client.GetStringAsync($"{proxy.Url}/chunked");
        using var empty = await client.GetAsync($"{proxy.Url}/empty");
        var sized = await client.GetStringAsync($"{proxy.Url}/sized");

        Assert.Equal(HttpStatusCode.OK, head.StatusCode);
        Assert.Equal(5, head.Content.Headers.ContentLength);
        Assert.Empty(await head.Content.ReadAsByteArrayAsync());
        Assert.Equal("hello world", chunked);
        Assert.Equal(HttpStatusCode.NoContent, empty.StatusCode);
        Assert.Equal("body", sized);
        Assert.Single(origin.Connections);
    }

    // RFC 9112 §9.3.1 and RFC 9110 §9.2.2: a pooled connection the destination closed (or reset) just as a stream's GET
    // went out on it answers nothing; the GET goes once more on a new connection, and the client gets that answer.
    [Theory]
    [MemberData(nameof(StaleModes))]
    public async Task StalePooledConnection_GetRepeatedOnceOnNewConnection(string mode, bool reset)
    {
        await using var origin = RetryTests.StaleAfterFirstResponseOrigin(reset);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var client = Http2Clients.Create();

        var first = await client.GetStringAsync($"{proxy.Url}/first");
        var second = await client.GetStringAsync($"{proxy.Url}/second");

        Assert.Equal("conn0", first);
        Assert.Equal("conn1", second);
        Assert.Equal(["/first", "/second"], origin.Connections[0].Requests.Select(request => request.Target));
        Assert.Equal(["/second"], origin.Connections[1].Requests.Select(request => request.Target));
    }

    // RFC 9112 §9.6 and §6.3: a destination that closes after a response without framing (close-delimited) ends that
    // body; the connection is not reused and the next stream is answered over a new one.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task CloseDelimitedResponse_RelayedWhole_NextStreamOnNewConnection(string mode)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end");
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var client = Http2Clients.Create();

        var first = await client.GetStringAsync($"{proxy.Url}/one");
        var second = await client.GetStringAsync($"{proxy.Url}/two");

        Assert.Equal("until the end", first);
        Assert.Equal("until the end", second);
        Assert.Equal(2, origin.Connections.Count);
    }

    // RFC 9112 §9.3.1 and RFC 9110 §9.2.2: a kept connection the destination closes after reading the next request,
    // without a byte of answer, did not process it: a GET is written again on a new connection and answered, not a 502.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task KeptConnectionClosedUnanswered_GetAnsweredOverNewConnection(string mode)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync(ScriptedOrigin.Ok);
            if (connection.Index == 0)
            {
                await connection.ReadRequestAsync();
                return;
            }

            while (await connection.ReadRequestAsync() is not null)
            {
                await connection.SendAsync(ScriptedOrigin.Ok);
            }
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var client = Http2Clients.Create();

        var first = await client.GetStringAsync($"{proxy.Url}/one");
        using var second = await client.GetAsync($"{proxy.Url}/two");

        Assert.Equal("ok", first);
        Assert.Equal(HttpStatusCode.OK, second.StatusCode);
        Assert.Equal("ok", await second.Content.ReadAsStringAsync());
    }

    // RFC 9110 §15.6.5: a destination that sends no response head within timeouts.responseHeadersMs is a 504 for the
    // HTTP/2 client, and the connection it holds is closed, never given to another request. The request goes over a kept
    // connection: a new one, still being made when the timeout falls, is one the upstream client may finish and keep idle.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task NoResponseHeadInTime_504(string mode)
    {
        var keptConnectionEnded = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            try
            {
                while (await connection.ReadRequestAsync() is { } request)
                {
                    if (request.Target == "/unanswered")
                    {
                        await connection.Reader.ReadToEndAsync();
                        return;
                    }

                    await connection.SendAsync(ScriptedOrigin.Ok);
                }
            }
            finally
            {
                if (connection.Index == 0)
                {
                    keptConnectionEnded.TrySetResult();
                }
            }
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "timeouts.responseHeadersMs=300");
        using var client = Http2Clients.Create();

        Assert.Equal("ok", await client.GetStringAsync($"{proxy.Url}/kept"));
        using var response = await client.GetAsync($"{proxy.Url}/unanswered");
        var after = await client.GetStringAsync($"{proxy.Url}/after");

        Assert.Equal(HttpStatusCode.GatewayTimeout, response.StatusCode);
        Assert.Equal("ok", after);
        await keptConnectionEnded.Task.WaitAsync(Deadline.Io);
        Assert.DoesNotContain(origin.Connections[0].Requests, request => request.Target == "/after");
    }

    // RFC 9110 §15.6.3: a destination that closes without answering is a 502 for the HTTP/2 client, as for HTTP/1.1.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task OriginClosesWithoutAnswering_502(string mode)
    {
        await using var origin = ScriptedOrigin.ClosesWithoutAnswering();
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var client = Http2Clients.Create();

        using var response = await client.GetAsync($"{proxy.Url}/");

        Assert.Equal(HttpVersion.Version20, response.Version);
        Assert.Equal(HttpStatusCode.BadGateway, response.StatusCode);
    }
}
