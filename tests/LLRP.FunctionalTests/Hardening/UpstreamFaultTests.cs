using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>
/// A downstream that misbehaves must never make the proxy answer one request with bytes meant for another: an upstream
/// connection with a framing anomaly, an unread body or an early response is discarded, never reused; and a client that
/// leaves mid-exchange takes its upstream connection with it.
/// </summary>
public sealed class UpstreamFaultTests
{
    private const string Get = "GET / HTTP/1.1\r\nHost: client.test\r\n\r\n";

    /// <summary>A whole response a downstream sends where none is due; forwarded as the answer to a later request, it would be smuggled.</summary>
    private const string Smuggled = "HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nsmuggled";

    public static TheoryData<string, string> InvalidResponses => LlrpModes.Cross(
        // RFC 9110 §8.6: differing Content-Length values.
        "HTTP/1.1 200 OK\r\nContent-Length: 2, 3\r\n\r\nok",
        "HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nok",
        // RFC 9112 §6.1 and §6.3 (3): Content-Length with Transfer-Encoding.
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
        // RFC 9112 §4: status lines.
        "HTTP/1.1 20 OK\r\nContent-Length: 2\r\n\r\nok",
        "HTTP/1.1  200 OK\r\nContent-Length: 2\r\n\r\nok",
        "HTTP/2.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
        // RFC 9110 §15.2.2: 101 to a request that asked for no upgrade.
        "HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n");

    /// <summary>Raw mode only: HttpClient parses responses leniently and accepts these (a documented difference of the HttpClient modes).</summary>
    public static TheoryData<string, string> InvalidResponsesHttpClientAccepts => LlrpModes.Cross(
        LlrpModes.RawOnly,
        // RFC 9112 §5.2: obs-fold in a response.
        "HTTP/1.1 200 OK\r\nX-Folded: a\r\n b\r\nContent-Length: 2\r\n\r\nok",
        // RFC 9112 §2.2: a bare LF.
        "HTTP/1.1 200 OK\nContent-Length: 2\r\n\r\nok");

    public static TheoryData<string, string, string> UnreusableFirstResponses => LlrpModes.Cross(
        ("GET", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst" + Smuggled),
        ("GET", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n0\r\n\r\n" + Smuggled),
        ("HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n" + Smuggled),
        ("GET", "HTTP/1.1 204 No Content\r\n\r\n" + Smuggled),
        ("GET", "HTTP/1.1 304 Not Modified\r\n\r\n" + Smuggled),
        ("GET", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 5\r\n\r\nfirst"));

    /// <summary>
    /// Raw mode only: HttpClient may keep the connection of an HTTP/1.0 response without keep-alive (a documented
    /// difference of the HttpClient modes).
    /// </summary>
    public static TheoryData<string, string, string> UnreusableFirstResponsesHttpClientReuses => LlrpModes.Cross(
        LlrpModes.RawOnly,
        ("GET", "HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nfirst"));

    /// <summary>
    /// Raw mode only: HttpClient sends the whole request body before it reads the response, so an early response waits
    /// for the body (a documented difference of the HttpClient modes).
    /// </summary>
    public static TheoryData<string, bool> EarlyResponseCases => LlrpModes.Cross(LlrpModes.RawOnly, false, true);

    // RFC 9112 §6.3: a response ends where its framing says (HEAD, 204 and 304 have no body). Bytes after it answer no
    // request, and a response that does not persist (RFC 9112 §9.3) ends the connection's use: either way the next
    // request is forwarded on a new connection, even though the downstream keeps this one open.
    [Theory]
    [MemberData(nameof(UnreusableFirstResponses))]
    [MemberData(nameof(UnreusableFirstResponsesHttpClientReuses))]
    public async Task UnreusableResponse_NextRequestOnNewUpstreamConnection(string mode, string method, string firstResponse)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            while (await connection.ReadRequestAsync() is { } request)
            {
                await connection.SendAsync(connection.Index == 0 && request.Target == "/first"
                    ? firstResponse
                    : $"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nconn{connection.Index}");
            }
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync($"{method} /first HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var first = await client.ReadResponseAsync(method);
        await using var nextClient = first.Head.Tokens("Connection").Contains("close") ? await proxy.ConnectAsync() : client;
        await nextClient.SendAsync("GET /second HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var second = await nextClient.ReadResponseAsync();

        Assert.Equal(method == "HEAD" || first.StatusCode is 204 or 304 ? "" : "first", first.BodyText);
        Assert.Equal("conn1", second.BodyText);
        Assert.Equal(["/first"], origin.Connections[0].Requests.Select(request => request.Target));
    }

    // RFC 9112 §9.6: a downstream that answered with "close" processes nothing after it, so the requests pipelined
    // behind that one, even a POST, are sent again on a new connection and all answered in order.
    // Raw mode only: the HttpClient modes do not pipeline upstream, and do not resend what was pipelined behind a
    // "close" response themselves (a documented difference of the HttpClient modes).
    [Theory]
    [MemberData(nameof(LlrpModes.Raw), MemberType = typeof(LlrpModes))]
    public async Task PipelinedBehindConnectionClose_RestSentAgainOnNewConnection(string mode)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            if (connection.Index > 0)
            {
                await AnswerWithConnectionIndexAsync(connection);
                return;
            }

            for (var i = 0; i < 3; i++)
            {
                await connection.ReadRequestAsync();
            }

            await connection.SendAsync("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 5\r\n\r\nconn0");
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(
            "GET /a HTTP/1.1\r\nHost: client.test\r\n\r\n"
            + "POST /b HTTP/1.1\r\nHost: client.test\r\nContent-Length: 4\r\n\r\nbody"
            + "GET /c HTTP/1.1\r\nHost: client.test\r\n\r\n");

        Assert.Equal("conn0", (await client.ReadResponseAsync()).BodyText);
        Assert.Equal("conn1", (await client.ReadResponseAsync("POST")).BodyText);
        Assert.Equal("conn1", (await client.ReadResponseAsync()).BodyText);
        Assert.Equal(["/b", "/c"], origin.Connections[1].Requests.Select(request => request.Target));
    }

    // RFC 9112 §9.3 / RFC 9110 §15: a downstream may answer before reading the whole body, then close or not. The client
    // gets the answer, though it is still sending; the upstream connection, not at a message boundary, is discarded.
    [Theory]
    [MemberData(nameof(EarlyResponseCases))]
    public async Task EarlyResponse_ClientGetsItAndUpstreamConnectionDiscarded(string mode, bool originCloses)
    {
        var firstEnded = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            if (connection.Index > 0)
            {
                await AnswerWithConnectionIndexAsync(connection);
                return;
            }

            try
            {
                await HttpHead.ReadAsync(connection.Reader);
                await connection.SendAsync("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nearly");
                if (!originCloses)
                {
                    await connection.Reader.ReadToEndAsync();
                }
            }
            finally
            {
                firstEnded.TrySetResult();
            }
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using (var uploader = await proxy.ConnectAsync())
        {
            using var stop = new CancellationTokenSource();
            await uploader.SendAsync("POST /upload HTTP/1.1\r\nHost: client.test\r\nContent-Length: 100000000\r\n\r\n");
            var upload = SendUntilStoppedAsync(uploader, stop.Token);

            var response = await uploader.ReadResponseAsync("POST");
            await stop.CancelAsync();
            await upload;

            Assert.Equal(200, response.StatusCode);
            Assert.Equal("early", response.BodyText);
        }

        await firstEnded.Task.WaitAsync(Deadline.Io);
        await using var next = await proxy.ConnectAsync();
        await next.SendAsync(Get);
        Assert.Equal("conn1", (await next.ReadResponseAsync()).BodyText);
    }

    // RFC 9110 §10.1.1, RFC 9112 §9.3: a final response to a request that waits for 100-continue, sent before any of the
    // body, says close: the body will not be read, so the connection cannot carry another request.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ExpectContinueRefused_ResponseSaysCloseAndConnectionCloses(string mode)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await HttpHead.ReadAsync(connection.Reader);
            await connection.SendAsync("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n");
            await connection.Reader.ReadToEndAsync();
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("POST /upload HTTP/1.1\r\nHost: client.test\r\nExpect: 100-continue\r\nContent-Length: 100000\r\n\r\n");
        var response = await client.ReadResponseAsync("POST");

        Assert.Equal(401, response.StatusCode);
        Assert.Contains("close", response.Head.Tokens("Connection"));
        await client.AssertClosedByPeerAsync();
    }

    // RFC 9112 §9.3.1: a response that ends its connection without announcing "close" (here close-delimited) leaves the
    // requests pipelined behind it in doubt: the downstream may have processed them. A POST among them is not sent
    // again; it is answered 502, and the downstream saw it once.
    // Raw mode only: the other modes do not pipeline upstream.
    [Theory]
    [MemberData(nameof(LlrpModes.Raw), MemberType = typeof(LlrpModes))]
    public async Task PipelinedBehindUnannouncedClose_PostNotSentAgain502(string mode)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            if (connection.Index > 0)
            {
                await AnswerWithConnectionIndexAsync(connection);
                return;
            }

            await connection.ReadRequestAsync();
            await connection.ReadRequestAsync();
            await connection.SendAsync("HTTP/1.1 200 OK\r\n\r\nstreamed");
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(
            "GET /stream HTTP/1.1\r\nHost: client.test\r\n\r\n"
            + "POST /order HTTP/1.1\r\nHost: client.test\r\nContent-Length: 4\r\n\r\nbody");

        Assert.Equal("streamed", (await client.ReadResponseAsync()).BodyText);
        var second = await client.ReadResponseAsync("POST");
        Assert.Equal(502, second.StatusCode);
        Assert.Contains("close", second.Head.Tokens("Connection"));
        await client.AssertClosedByPeerAsync();
        Assert.Single(origin.Requests, request => request.Target == "/order");
    }

    // RFC 9112 §9.3: a response to an HTTP/1.0 client may end its connection (close-delimited) only once it is relayed,
    // so nothing pipelined behind an HTTP/1.0 request is sent upstream before its response is known.
    // Raw mode only: the other modes do not pipeline upstream.
    [Theory]
    [MemberData(nameof(LlrpModes.Raw), MemberType = typeof(LlrpModes))]
    public async Task PipelinedHttp10KeepAlive_NextRequestNotSentBeforeTheResponseIsKnown(string mode)
    {
        await using var origin = ScriptedOrigin.Respond("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(
            "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
            + "POST /b HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 4\r\n\r\nbody");
        var first = await client.ReadResponseAsync();

        Assert.Equal("hi", first.BodyText);
        Assert.Contains("close", first.Head.Tokens("Connection"));
        await client.AssertClosedByPeerAsync();
        Assert.Equal(["/a"], origin.Requests.Select(request => request.Target));

        // Sent in the same batch, /b would have come in the same write as /a, which the origin has read.
        Assert.DoesNotContain(origin.Connections, connection => Encoding.Latin1.GetString(connection.Reader.Received).Contains("POST /b", StringComparison.Ordinal));
    }

    // RFC 9112 §4–§6: a response the proxy cannot frame unambiguously is a 502 with "close", and the upstream
    // connection it came on is closed and never reused.
    [Theory]
    [MemberData(nameof(InvalidResponses))]
    [MemberData(nameof(InvalidResponsesHttpClientAccepts))]
    public async Task InvalidResponse_502AndUpstreamConnectionDiscarded(string mode, string invalidResponse)
    {
        var firstEnded = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            if (connection.Index > 0)
            {
                await AnswerWithConnectionIndexAsync(connection);
                return;
            }

            try
            {
                await connection.ReadRequestAsync();
                await connection.SendAsync(invalidResponse);
                await connection.Reader.ReadToEndAsync();
            }
            finally
            {
                firstEnded.TrySetResult();
            }
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using (var client = await proxy.ConnectAsync())
        {
            await client.SendAsync(Get);
            var response = await client.ReadResponseAsync();

            Assert.Equal(502, response.StatusCode);
            Assert.Contains("close", response.Head.Tokens("Connection"));
            await client.AssertClosedByPeerAsync();
        }

        await firstEnded.Task.WaitAsync(Deadline.Io);
        await using var next = await proxy.ConnectAsync();
        await next.SendAsync(Get);
        Assert.Equal("conn1", (await next.ReadResponseAsync()).BodyText);
        Assert.Single(origin.Connections[0].Requests);
    }

    // A client that goes away mid-upload takes its upstream connection with it: the downstream never sees the request
    // complete, the connection is closed, nothing stays counted as open, and a client leaving is no upstream error.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ClientAbortMidUpload_UpstreamClosedAndNothingLeaks(string mode)
    {
        var outcome = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            try
            {
                var request = await connection.ReadRequestAsync();
                outcome.TrySetResult(request is null ? "closed" : "complete");
            }
            catch (IOException)
            {
                outcome.TrySetResult("cut");
            }
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var metrics = new ProxyMeterRecorder(proxy);
        await using (var client = await proxy.ConnectAsync())
        {
            await client.SendAsync("POST /upload HTTP/1.1\r\nHost: client.test\r\nContent-Length: 1000000\r\n\r\n");
            await client.SendAsync(new byte[100000]);

            // The upload is under way at the origin once half of what was sent is there. Not all of it: a forwarder over
            // HttpClient (YARP's, for a body with a Content-Length) may keep the tail of a write in HttpClient's own
            // buffer until more body comes, which it never does here.
            await Deadline.UntilAsync(() => origin.BytesReceived > 50000, "Half of the body sent reaching the origin");
        }

        Assert.Equal("cut", await outcome.Task.WaitAsync(Deadline.Io));
        await metrics.WaitForSumAsync("llrp.client.active_connections", 0);
        await metrics.WaitForSumAsync("llrp.upstream.active_connections", 0);
        Assert.True(metrics.Sum("llrp.upstream.errors") == 0, $"A client abort counted as upstream errors: {metrics.Describe("llrp.upstream.errors")}");
    }

    // RFC 9112 §8: a request cut short by its client is incomplete; the proxy may answer 400 before closing, or just close.
    // Nothing timed out and the downstream did nothing wrong, so a 502 or 504 would blame it falsely.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ClientHalfClosesMidUpload_NoGatewayErrorBlamed(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("POST /upload HTTP/1.1\r\nHost: client.test\r\nContent-Length: 1000\r\n\r\n");
        await Deadline.UntilAsync(() => origin.BytesReceived > 0, "The head reaching the origin");
        await client.SendAsync(new string('x', 100));
        client.ShutdownSend();
        var answer = Encoding.Latin1.GetString(await client.ReadToEndAsync());

        Assert.True(answer.Length == 0 || answer.StartsWith("HTTP/1.1 400 ", StringComparison.Ordinal), $"Expected a 400 or a close, got:\n{answer}");
    }

    // A client that goes away mid-download: the proxy stops reading the response and closes the upstream connection
    // (its body is unread), so the downstream's writes fail instead of blocking forever.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ClientAbortMidDownload_UpstreamClosedAndNothingLeaks(string mode)
    {
        var written = 0L;
        var outcome = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            var block = new byte[64 * 1024];
            try
            {
                await connection.SendAsync("HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n");
                while (Interlocked.Read(ref written) < 1_000_000_000)
                {
                    await connection.SendAsync(block);
                    Interlocked.Add(ref written, block.Length);
                }

                outcome.TrySetResult("whole body sent");
            }
            catch (IOException)
            {
                outcome.TrySetResult("cut");
            }
            catch (TimeoutException)
            {
                outcome.TrySetResult("writes blocked: the proxy neither reads nor closes the upstream connection");
            }
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var metrics = new ProxyMeterRecorder(proxy);
        await using (var client = await proxy.ConnectAsync())
        {
            await client.SendAsync(Get);
            await Deadline.UntilAsync(() => Interlocked.Read(ref written) > 1024 * 1024, "1 MB of the body leaving the origin");
        }

        Assert.Equal("cut", await outcome.Task.WaitAsync(Deadline.Io + Deadline.Io));
        await metrics.WaitForSumAsync("llrp.client.active_connections", 0);
        await metrics.WaitForSumAsync("llrp.upstream.active_connections", 0);
    }

    private static async Task AnswerWithConnectionIndexAsync(OriginConnection connection)
    {
        while (await connection.ReadRequestAsync() is not null)
        {
            await connection.SendAsync($"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nconn{connection.Index}");
        }
    }

    /// <summary>Sends body bytes until stopped or until the proxy no longer takes them.</summary>
    private static async Task SendUntilStoppedAsync(RawHttpClient client, CancellationToken stop)
    {
        var block = new byte[16 * 1024];
        try
        {
            while (!stop.IsCancellationRequested)
            {
                await client.SendAsync(block);
                await Task.Delay(1, stop);
            }
        }
        catch (Exception e) when (e is OperationCanceledException or IOException or TimeoutException)
        {
            // Stopped, or the proxy stopped reading or closed the connection.
        }
    }
}
