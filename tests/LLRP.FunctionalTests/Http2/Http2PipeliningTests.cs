using LLRP.FunctionalTests.Hardening;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// <c>pool.pipelineDepth</c>: requests of HTTP/2 streams that arrive together, without a body and with an idempotent
/// method, go back to back on one pooled HTTP/1.1 connection (RFC 9112 §9.3.2), and each stream gets its own response.
/// The streams are sent in one write, frame by frame (<see cref="Http2Wire"/>), so that LLRP's own HTTP/2 server reads
/// them in one turn of its event loop. A warm-up request first leaves one connection in the pool: a line starts on a
/// connection at hand, not on one still being made. Each origin answers a request with its target as the body, so a
/// response relayed to the wrong stream shows.
/// </summary>
public sealed class Http2PipeliningTests
{
    private static readonly string[] Pipelined = ["mode=raw", "upstreamConnections=pooled", "transport=epoll", "pool.pipelineDepth=8"];

    [Fact]
    public async Task Rfc9112_9_3_2_RequestsReadTogether_GoBackToBackOnOneConnection_EachStreamGetsItsOwnResponse()
    {
        await using var origin = ScriptedOrigin.Respond(EchoTarget);
        await using var proxy = await Http2Servers.StartProxyAsync(Http2Servers.Llrp, origin.Url, Pipelined);
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var wire = await WarmedUpAsync(proxy);

        await SendTogetherAsync(wire, proxy.Authority, (3, "GET", "/a"), (5, "HEAD", "/b"), (7, "GET", "/c"), (9, "GET", "/d"));
        var outcomes = await wire.ReadStreamsAsync(3, 5, 7, 9);

        AssertAnswered(outcomes[3], "/a");
        Assert.Equal(200, outcomes[5].Status);
        Assert.Equal("", outcomes[5].Body.ToString());
        AssertAnswered(outcomes[7], "/c");
        AssertAnswered(outcomes[9], "/d");
        var connection = Assert.Single(origin.Connections);
        Assert.Equal(["/warm-up", "/a", "/b", "/c", "/d"], connection.Requests.Select(request => request.Target));
        Assert.Equal(3, metrics.Sum("llrp.upstream.pipelined"));
    }

    // RFC 9112 §9.3.2: a request with a body (and, by RFC 9110 §9.2.2, one whose method is not idempotent) is not written
    // behind another's; the bodiless GET after it still is.
    [Fact]
    public async Task Rfc9112_9_3_2_RequestWithBody_GoesOnAConnectionOfItsOwn()
    {
        await using var origin = ScriptedOrigin.Respond(EchoTarget);
        await using var proxy = await Http2Servers.StartProxyAsync(Http2Servers.Llrp, origin.Url, Pipelined);
        await using var wire = await WarmedUpAsync(proxy);

        await wire.SendRawAsync([
            .. HeadersFrame(3, "GET", proxy.Authority, "/a"),
            .. Http2Wire.FrameBytes(Http2Wire.Headers, Http2Wire.EndHeaders, 5, Http2Wire.FieldBlock(Http2Wire.Request("POST", proxy.Authority, "/p", ("content-length", "4")))),
            .. Http2Wire.FrameBytes(Http2Wire.Data, Http2Wire.EndStream, 5, "body"u8.ToArray()),
            .. HeadersFrame(7, "DELETE", proxy.Authority, "/c"),
        ]);
        var outcomes = await wire.ReadStreamsAsync(3, 5, 7);

        AssertAnswered(outcomes[3], "/a");
        AssertAnswered(outcomes[5], "/p");
        AssertAnswered(outcomes[7], "/c");
        var first = origin.Connections[0];
        Assert.Equal(["/warm-up", "/a", "/c"], first.Requests.Select(request => request.Target));
        var post = Assert.Single(origin.Connections.Skip(1));
        Assert.Equal("body", Assert.Single(post.Requests).BodyText);
    }

    // RFC 9112 §9.6: a response that announces the close answers only its own request; the requests written behind it
    // are idempotent and were not answered (RFC 9112 §9.3.1), so each goes again on a new connection.
    [Fact]
    public async Task Rfc9112_9_6_ResponseThatCloses_RequestsBehindItGoAgainOnNewConnections()
    {
        await using var origin = ClosingOrigin("/close", behind: 2, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 6\r\n\r\n/close");
        await using var proxy = await Http2Servers.StartProxyAsync(Http2Servers.Llrp, origin.Url, Pipelined);
        await using var wire = await WarmedUpAsync(proxy);

        await SendTogetherAsync(wire, proxy.Authority, (3, "GET", "/close"), (5, "GET", "/b"), (7, "GET", "/c"));
        var outcomes = await wire.ReadStreamsAsync(3, 5, 7);

        AssertAnswered(outcomes[3], "/close");
        AssertAnswered(outcomes[5], "/b");
        AssertAnswered(outcomes[7], "/c");
        Assert.Equal(["/warm-up", "/close", "/b", "/c"], origin.Connections[0].Requests.Select(request => request.Target));
        Assert.Equal(["/b", "/c"], origin.Connections.Skip(1).SelectMany(connection => connection.Requests).Select(request => request.Target).Order());
    }

    // RFC 9112 §9.3.1: a connection that closes after a whole response, before a byte of the next, may not have processed
    // the requests behind: they go again on a new connection.
    [Fact]
    public async Task Rfc9112_9_3_1_ConnectionClosedAfterAResponse_RequestsBehindItGoAgain()
    {
        await using var origin = ClosingOrigin("/last", behind: 1, EchoTarget("/last"));
        await using var proxy = await Http2Servers.StartProxyAsync(Http2Servers.Llrp, origin.Url, Pipelined);
        await using var wire = await WarmedUpAsync(proxy);

        await SendTogetherAsync(wire, proxy.Authority, (3, "GET", "/last"), (5, "GET", "/b"));
        var outcomes = await wire.ReadStreamsAsync(3, 5);

        AssertAnswered(outcomes[3], "/last");
        AssertAnswered(outcomes[5], "/b");
        Assert.Equal(["/warm-up", "/last", "/b"], origin.Connections[0].Requests.Select(request => request.Target));
        Assert.Equal("/b", Assert.Single(origin.Connections[1].Requests).Target);
    }

    // RFC 9110 §15.6.5: a stream waiting behind a response whose body does not end gets its 504 when its own response
    // headers timeout passes, not when the body ahead ends. Its response would then reach no one, so the connection
    // carries nothing more after the body ahead: the request behind it goes again on a new connection.
    [Fact]
    public async Task Rfc9110_15_6_5_StreamWaitingBehindABodyThatDoesNotEnd_GetsItsGatewayTimeout()
    {
        var bodyHeld = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            while (await connection.ReadRequestAsync() is { } request)
            {
                if (request.Target == "/slow")
                {
                    await connection.ReadRequestAsync();
                    await connection.ReadRequestAsync();
                    await connection.SendAsync("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n/slow");
                    await bodyHeld.Task;
                    await connection.SendAsync("12345" + EchoTarget("/b") + EchoTarget("/c"));
                    continue;
                }

                await connection.SendAsync(EchoTarget(request));
            }
        });
        await using var proxy = await Http2Servers.StartProxyAsync(Http2Servers.Llrp, origin.Url, [.. Pipelined, "timeouts.responseHeadersMs=300"]);
        await using var wire = await WarmedUpAsync(proxy);

        await SendTogetherAsync(wire, proxy.Authority, (3, "GET", "/slow"), (5, "GET", "/b"), (7, "GET", "/c"));
        var answeredBehind = 0;
        var outcomes = await wire.ReadStreamsAsync([3, 5, 7], ended: id =>
        {
            // The body ahead ends only once both streams behind it were answered.
            if (id != 3 && ++answeredBehind == 2)
            {
                bodyHeld.SetResult();
            }
        });

        Assert.Equal(504, outcomes[5].Status);
        Assert.Equal(504, outcomes[7].Status);
        AssertAnswered(outcomes[3], "/slow12345");
        Assert.Equal(["/warm-up", "/slow", "/b", "/c"], origin.Connections[0].Requests.Select(request => request.Target));
    }

    // RFC 9113 §6.4: a client that resets a stream waiting behind another takes nothing from the line but its own answer:
    // the stream ahead is answered, and so is the one behind. A PING round trip after the requests makes sure all three
    // were written upstream before the reset. The reset reaches the waiting stream off the read loop, before or after its
    // response comes: either way the stream behind gets its own response, on the same connection or, written again, on a
    // new one (RFC 9112 §9.3.1).
    [Fact]
    public async Task Rfc9113_6_4_ClientResetsAWaitingStream_TheStreamsAroundItGetTheirOwnResponses()
    {
        var answer = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = HoldingOrigin(answer.Task);
        await using var proxy = await Http2Servers.StartProxyAsync(Http2Servers.Llrp, origin.Url, Pipelined);
        await using var wire = await WarmedUpAsync(proxy);

        await SendTogetherAsync(wire, proxy.Authority, (3, "GET", "/hold"), (5, "GET", "/b"), (7, "GET", "/c"));
        await wire.PingRoundTripAsync("written."u8.ToArray());
        await wire.SendResetAsync(5);
        await wire.PingRoundTripAsync("reset..."u8.ToArray());
        answer.SetResult();
        var outcomes = await wire.ReadStreamsAsync(3, 7);

        AssertAnswered(outcomes[3], "/hold");
        AssertAnswered(outcomes[7], "/c");
        Assert.Equal(["/warm-up", "/hold", "/b", "/c"], origin.Connections[0].Requests.Select(request => request.Target).Take(4));
    }

    // A stream its client resets in the same read that opened it: whether the server starts it before it reads the reset
    // or not, the streams around it are each answered with their own response.
    [Fact]
    public async Task Rfc9113_6_4_StreamResetInTheSameRead_TheOthersGetTheirOwnResponses()
    {
        await using var origin = ScriptedOrigin.Respond(EchoTarget);
        await using var proxy = await Http2Servers.StartProxyAsync(Http2Servers.Llrp, origin.Url, Pipelined);
        await using var wire = await WarmedUpAsync(proxy);

        await wire.SendRawAsync([
            .. HeadersFrame(3, "GET", proxy.Authority, "/a"),
            .. HeadersFrame(5, "GET", proxy.Authority, "/b"),
            .. Http2Wire.FrameBytes(Http2Wire.RstStream, 0, 5, [0, 0, 0, Http2Wire.Cancel]),
            .. HeadersFrame(7, "GET", proxy.Authority, "/c"),
        ]);
        var outcomes = await wire.ReadStreamsAsync(3, 7);

        AssertAnswered(outcomes[3], "/a");
        AssertAnswered(outcomes[7], "/c");
    }

    /// <summary>
    /// An origin that answers each request with its target, but <paramref name="target"/>'s with <paramref name="answer"/>,
    /// sent after it read the <paramref name="behind"/> requests written behind it (so that its close is a FIN, not a reset
    /// for unread bytes), and then closes the connection.
    /// </summary>
    private static ScriptedOrigin ClosingOrigin(string target, int behind, string answer) => ScriptedOrigin.Start(async connection =>
    {
        while (await connection.ReadRequestAsync() is { } request)
        {
            if (request.Target != target)
            {
                await connection.SendAsync(EchoTarget(request));
                continue;
            }

            for (var i = 0; i < behind; i++)
            {
                await connection.ReadRequestAsync();
            }

            await connection.SendAsync(answer);
            return;
        }
    });

    /// <summary>An origin that answers each request with its target, in order, the answer to <c>/hold</c> (and those after it) once <paramref name="answer"/> completed.</summary>
    private static ScriptedOrigin HoldingOrigin(Task answer) => ScriptedOrigin.Start(async connection =>
    {
        while (await connection.ReadRequestAsync() is { } request)
        {
            if (request.Target == "/hold")
            {
                await answer;
            }

            await connection.SendAsync(EchoTarget(request));
        }
    });

    /// <summary>An HTTP/2 connection to <paramref name="proxy"/> whose first request (stream 1) was answered, its upstream connection back in the pool.</summary>
    private static async Task<Http2Wire> WarmedUpAsync(HostedApp proxy)
    {
        var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/warm-up"));
        AssertAnswered(await wire.ReadStreamAsync(1), "/warm-up");
        return wire;
    }

    /// <summary>Sends a bodiless request on each stream in one write.</summary>
    private static Task SendTogetherAsync(Http2Wire wire, string authority, params (int Stream, string Method, string Path)[] requests)
        => wire.SendRawAsync([.. requests.SelectMany(request => HeadersFrame(request.Stream, request.Method, authority, request.Path))]);

    private static byte[] HeadersFrame(int streamId, string method, string authority, string path)
        => Http2Wire.FrameBytes(Http2Wire.Headers, Http2Wire.EndHeaders | Http2Wire.EndStream, streamId, Http2Wire.FieldBlock(Http2Wire.Request(method, authority, path)));

    /// <summary>A 200 whose body is the request's target; none for HEAD (RFC 9110 §9.3.2), its length still given.</summary>
    private static string EchoTarget(ReceivedRequest request)
        => request.Method == "HEAD" ? EchoTarget(request.Target)[..^request.Target.Length] : EchoTarget(request.Target);

    private static string EchoTarget(string target) => $"HTTP/1.1 200 OK\r\nContent-Length: {Encoding.Latin1.GetByteCount(target)}\r\n\r\n{target}";

    private static void AssertAnswered(Http2Wire.StreamOutcome outcome, string body)
    {
        Assert.Equal(200, outcome.Status);
        Assert.Equal(body, outcome.Body.ToString());
    }
}
