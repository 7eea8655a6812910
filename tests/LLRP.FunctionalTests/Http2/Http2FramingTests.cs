using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// What HttpClient will not send, frame by frame (<see cref="Http2Wire"/>): malformed requests (RFC 9113 §8.1.1, §8.2.2),
/// <c>:authority</c> beside <c>Host</c> (§8.3.1), CONNECT (§8.5), a client's reset mid-body (§8.1), and a stream flood
/// bounded by the concurrent streams limit (§5.1.2).
/// </summary>
public sealed class Http2FramingTests
{
    private const int ProtocolError = 0x1;
    private const int RefusedStream = 0x7;

    /// <summary>The connection-specific fields of RFC 9113 §8.2.2, on every HTTP/2 server.</summary>
    public static TheoryData<string, string, string> ConnectionSpecificFields
    {
        get
        {
            var data = new TheoryData<string, string, string>();
            foreach (var server in Http2Servers.All)
            {
                foreach (var (name, value) in new[] { ("connection", "keep-alive"), ("keep-alive", "timeout=5"), ("proxy-connection", "keep-alive"), ("transfer-encoding", "chunked"), ("upgrade", "websocket"), ("te", "gzip") })
                {
                    data.Add(server, name, value);
                }
            }

            return data;
        }
    }

    // RFC 9113 §8.2.2: connection-specific fields make a request malformed; §8.1.1: a malformed request is a stream error
    // (PROTOCOL_ERROR) and is never forwarded. Kestrel refuses `connection` with a connection error, which also ends the stream.
    [Theory]
    [MemberData(nameof(ConnectionSpecificFields))]
    public async Task ConnectionSpecificField_ProtocolErrorNotForwarded(string server, string name, string value)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, Http2Servers.Mode(server, LlrpModes.RawPooled));
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: true, Get("/", proxy.Authority, (name, value)));
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Null(outcome.Status);
        Assert.Equal(ProtocolError, outcome.ResetError ?? outcome.GoAwayError);
        Assert.Empty(origin.Requests);
    }

    // RFC 9113 §8.3.1: Kestrel resolves a Host that disagrees with :authority by taking :authority; the request is routed
    // and forwarded with that one authority, and the disagreeing Host never reaches the origin.
    [Fact]
    public async Task KestrelServer_AuthorityAndDisagreeingHost_AuthorityAloneForwarded()
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, Http2Servers.Mode(Http2Servers.Kestrel, LlrpModes.RawPooled));
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: true, Get("/", "a.test", ("host", "b.test")));
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        var forwarded = origin.SingleRequest().Head;
        Assert.Equal("a.test", forwarded.Get("X-Forwarded-Host"));
        Assert.DoesNotContain("b.test", forwarded.ToString());
    }

    // RFC 9113 §8.3.1: "A server SHOULD treat a request as malformed if it contains a Host header field that identifies an
    // entity that differs from the entity in the :authority pseudo-header field"; LLRP's own server answers it 400, as
    // HTTP/1.1 answers two different Host fields (RFC 9112 §3.2), and forwards nothing. An agreeing Host passes.
    [Theory]
    [InlineData("b.test", 400)]
    [InlineData("a.test", 200)]
    public async Task OwnServer_AuthorityAndHost_400WhenTheyDisagree(string host, int status)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, Http2Servers.Mode(Http2Servers.Llrp, LlrpModes.RawPooled));
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: true, Get("/", "a.test", ("host", host)));
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(status, outcome.Status);
        Assert.Equal(status == 200 ? 1 : 0, origin.Requests.Count);
    }

    // RFC 9113 §8.5 and RFC 8441: LLRP tunnels nothing over HTTP/2, so CONNECT (extended or not) is refused with 501.
    // LLRP's own server never sends SETTINGS_ENABLE_CONNECT_PROTOCOL, so to it an extended CONNECT's :protocol is an unknown
    // pseudo-header field: the request is malformed (RFC 8441 §3, RFC 9113 §8.3), a stream error of type PROTOCOL_ERROR.
    [Theory]
    [InlineData(Http2Servers.Kestrel, false)]
    [InlineData(Http2Servers.Kestrel, true)]
    [InlineData(Http2Servers.Llrp, false)]
    [InlineData(Http2Servers.Llrp, true)]
    public async Task Connect_Refused501(string server, bool extended)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, Http2Servers.Mode(server, LlrpModes.RawPooled));
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        (string, string)[] fields = extended
            ? [(":method", "CONNECT"), (":protocol", "websocket"), (":scheme", "http"), (":authority", proxy.Authority), (":path", "/ws"), ("sec-websocket-version", "13")]
            : [(":method", "CONNECT"), (":authority", "a.test:443")];
        await wire.SendHeadersAsync(1, endStream: false, fields);
        var outcome = await wire.ReadStreamAsync(1);

        if (extended && server == Http2Servers.Llrp)
        {
            Assert.Null(outcome.Status);
            Assert.Equal(ProtocolError, outcome.ResetError);
        }
        else
        {
            Assert.Equal(501, outcome.Status);
        }

        Assert.Empty(origin.Requests);
    }

    // RFC 9113 §8.1 and §6.4: a client that resets its stream mid-body cancels the request upstream: the origin's
    // connection ends before the body does, and the proxy goes on serving the client's other streams.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task ClientResetMidBody_UpstreamRequestCancelled(string mode)
    {
        var upstreamEnded = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(connection => ReadToEndThenSignalAsync(connection, upstreamEnded));
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: false, [(":method", "POST"), (":scheme", "http"), (":authority", proxy.Authority), (":path", "/upload")]);
        await wire.SendDataAsync(1, "first-piece"u8.ToArray(), endStream: false);
        await Deadline.UntilAsync(
            () => origin.Connections.Any(connection => System.Text.Encoding.Latin1.GetString(connection.Reader.Received).Contains("first-piece")),
            "The first piece of the body reaching the origin");
        await wire.SendResetAsync(1);

        await upstreamEnded.Task.WaitAsync(Deadline.Io);
    }

    // RFC 9113 §8.1 and §6.4: a client that resets its stream while the destination has not answered cancels the request
    // upstream (the wait for the response head ends with the reset, not with timeouts.responseHeadersMs): the origin's
    // connection ends, and the client's next stream on the same connection is answered.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task ClientResetBeforeResponseHead_UpstreamRequestCancelled(string mode)
    {
        var upstreamEnded = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            var request = await connection.ReadRequestAsync();
            if (request?.Target == "/next")
            {
                await connection.SendAsync(ScriptedOrigin.Ok);
                return;
            }

            await ReadToEndThenSignalAsync(connection, upstreamEnded);
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: true, Get("/held", proxy.Authority));
        await Deadline.UntilAsync(() => origin.Requests.Count > 0, "The request reaching the origin");
        await wire.SendResetAsync(1);
        await upstreamEnded.Task.WaitAsync(Deadline.Io);
        await wire.SendHeadersAsync(3, endStream: true, Get("/next", proxy.Authority));
        var next = await wire.ReadStreamAsync(3);

        Assert.Equal(200, next.Status);
    }

    /// <summary>An origin connection that reads until the proxy ends it, then signals <paramref name="ended"/>.</summary>
    private static async Task ReadToEndThenSignalAsync(OriginConnection connection, TaskCompletionSource ended)
    {
        try
        {
            await connection.Reader.ReadToEndAsync();
        }
        finally
        {
            ended.TrySetResult();
        }
    }

    // RFC 9113 §5.1.2: the server's SETTINGS_MAX_CONCURRENT_STREAMS (limits.http2.maxConcurrentStreams) bounds a flood:
    // streams past it are refused (REFUSED_STREAM), never forwarded.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task StreamFlood_BoundedByMaxConcurrentStreams(string server)
    {
        const int max = 4, sent = 12;
        var held = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var arrived = 0;
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            Interlocked.Increment(ref arrived);
            await held.Task;
            await connection.SendAsync(ScriptedOrigin.Ok);
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, Http2Servers.Mode(server, LlrpModes.RawPooled), $"limits.http2.maxConcurrentStreams={max}");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        Assert.Equal((uint)max, wire.ServerSettings[0x3]);

        for (var i = 0; i < sent; i++)
        {
            await wire.SendHeadersAsync(1 + (2 * i), endStream: true, Get("/", proxy.Authority));
        }

        var refused = 0;
        while (refused < sent - max)
        {
            var frame = await wire.ReadFrameAsync();
            if (frame.Type == Http2Wire.RstStream && System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(frame.Payload) == RefusedStream)
            {
                refused++;
            }
        }

        await Deadline.UntilAsync(() => Volatile.Read(ref arrived) == max, "The streams within the limit reaching the origin");
        held.SetResult();
        Assert.Equal(max, Volatile.Read(ref arrived));
    }

    private static (string, string)[] Get(string path, string authority, params (string, string)[] more)
        => [(":method", "GET"), (":scheme", "http"), (":authority", authority), (":path", path), .. more];
}
