using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// RFC 9113 and RFC 7541 rules LLRP's own HTTP/2 server keeps where Kestrel's departs from them, frame by frame
/// (<see cref="Http2Wire"/>): each test names the section and what Kestrel's server does instead, so these run against
/// LLRP's server alone (the tests run against both accept either behaviour); the last one holds the other side of the
/// §5.1.1 rule, where both servers agree.
/// </summary>
public sealed class OwnServerRfcTests
{
    private static string OwnServer => OwnServerHardeningTests.OwnServer;

    /// <summary>
    /// RFC 9113 §3.4: the client's preface is the magic string then a SETTINGS frame; another frame first (a PING, a
    /// HEADERS) is a connection error of type PROTOCOL_ERROR, and no request is served. Kestrel's server takes the frame as
    /// if SETTINGS had come first, and keeps the connection open.
    /// </summary>
    [Theory]
    [InlineData(Http2Wire.Ping)]
    [InlineData(Http2Wire.Headers)]
    public async Task PrefaceNotFollowedBySettings_ProtocolErrorNothingServed(byte firstFrame)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServer);
        await using var wire = await Http2Wire.OpenAsync(proxy.Port);

        await wire.SendRawAsync(Http2Wire.Preface);
        if (firstFrame == Http2Wire.Ping)
        {
            await wire.SendPingAsync(new byte[8]);
        }
        else
        {
            await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/"));
        }

        await wire.ExpectConnectionErrorAsync(Http2Wire.ProtocolError);
        Assert.Empty(origin.Requests);
    }

    /// <summary>
    /// RFC 7541 §6.1: index 0 is not used; an indexed field of index 0 is a decoding error, a connection error of type
    /// COMPRESSION_ERROR (RFC 9113 §4.3), and nothing is forwarded. Kestrel's server ends the connection with INTERNAL_ERROR.
    /// </summary>
    [Fact]
    public async Task IndexZero_CompressionErrorNothingForwarded()
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServer);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        byte[] block = [.. Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/")), 0x80];
        await wire.SendFrameAsync(Http2Wire.Headers, Http2Wire.EndHeaders | Http2Wire.EndStream, 1, block);

        await wire.ExpectConnectionErrorAsync(Http2Wire.CompressionError);
        Assert.Empty(origin.Requests);
    }

    /// <summary>
    /// RFC 9113 §10.5 (CVE-2019-9512 ping flood, CVE-2019-9515 settings flood): a client that sends PING or SETTINGS and
    /// never reads the ACKs makes them pile up; past a bound the connection ends, with GOAWAY ENHANCE_YOUR_CALM or a
    /// close. Kestrel's server stops reading the client while its ACKs back up, and holds the stalled connection open.
    /// </summary>
    /// <remarks>
    /// Over epoll the flood also must not keep the connection's loop receiving while its answers wait unflushed: a
    /// readiness event that found the socket always full once received the whole flood before any answer was flushed, so
    /// the output never pushed back and the bound was never reached.
    /// </remarks>
    [Theory]
    [InlineData(Http2Wire.Ping, "sockets")]
    [InlineData(Http2Wire.Settings, "sockets")]
    [InlineData(Http2Wire.Ping, "epoll")]
    [InlineData(Http2Wire.Settings, "epoll")]
    public async Task ControlFloodAcksNotRead_ConnectionEnded(byte type, string transport)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServer, $"transport={transport}");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        var frame = Http2Wire.FrameBytes(type, 0, 0, type == Http2Wire.Ping ? new byte[8] : []);
        await wire.FloodAsync(frame, 64L << 20);

        // The end comes as the GOAWAY, or as the close alone: a reset of a connection whose client never read takes the
        // unread frames, the GOAWAY among them, with it. A connection left open fails the read's deadline.
        var end = await wire.ReadConnectionEndAsync();

        Assert.True(end.ErrorCode is null or Http2Wire.EnhanceYourCalm, $"Expected GOAWAY ENHANCE_YOUR_CALM or the connection's end, got GOAWAY with error {end.ErrorCode}.");
    }

    /// <summary>
    /// RFC 9113 §10.5 (CVE-2024-27316, the CONTINUATION flood): empty CONTINUATION frames add nothing to a header block,
    /// so its size limit never ends them; past 100 in a row the connection ends with ENHANCE_YOUR_CALM, and nothing
    /// reaches the origin. Kestrel's server takes them on and keeps the connection, the header block open.
    /// </summary>
    [Fact]
    public async Task EndlessEmptyContinuation_EnhanceYourCalmNothingForwarded()
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServer);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendFrameAsync(Http2Wire.Headers, 0, 1, Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/")));
        for (var i = 0; i <= 100; i++)
        {
            await wire.SendFrameAsync(Http2Wire.Continuation, 0, 1, []);
        }

        await wire.ExpectConnectionErrorAsync(Http2Wire.EnhanceYourCalm);
        Assert.Empty(origin.Requests);
    }

    /// <summary>
    /// RFC 9113 §6.8 and §9.1: on a graceful stop the server sends GOAWAY, lets the streams it took complete, then closes
    /// the connection itself. Kestrel's server waits for the client to close it, or for the shutdown timeout to abort it.
    /// </summary>
    [Fact]
    public async Task GracefulStop_ServerClosesOnceLastStreamCompletes()
    {
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await release.Task.WaitAsync(Deadline.Io);
            await connection.SendAsync(ScriptedOrigin.Ok);
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServer, "shutdownTimeoutMs=30000");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/held"));
        await Deadline.UntilAsync(() => origin.Requests.Count == 1, "The held request reaching the origin");

        using var stopLimit = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        var stopping = proxy.StopAsync(stopLimit.Token);
        release.SetResult();
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        Assert.Equal(Http2Wire.NoError, outcome.GoAwayError);
        await wire.ExpectClosedAsync();
        await stopping.WaitAsync(Deadline.Io);
    }

    /// <summary>
    /// RFC 9113 §5.1.1: a new stream's id is greater than every one the client opened; HEADERS on an id it skipped is an
    /// unexpected id, a connection error of type PROTOCOL_ERROR, and that stream is not served. Kestrel's server answers
    /// STREAM_CLOSED (it keeps no record of which ids were opened).
    /// </summary>
    [Fact]
    public async Task DecreasingStreamId_ProtocolError()
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServer);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(5, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/five"));
        Assert.Equal(200, (await wire.ReadStreamAsync(5)).Status);

        await wire.SendHeadersAsync(3, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/three"));

        Assert.Equal(5, await wire.ExpectConnectionErrorAsync(Http2Wire.ProtocolError));
        Assert.Equal(["/five"], origin.Requests.Select(request => request.Target));
    }

    /// <summary>
    /// RFC 9113 §5.1: HEADERS on a stream the client opened and that closed (not one it skipped, §5.1.1) is a frame on a
    /// closed stream: STREAM_CLOSED (a stream error, or the connection error §5.1 allows).
    /// </summary>
    [Fact]
    public async Task HeadersOnStreamClosedAfterUse_StreamClosed()
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServer);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/one"));
        Assert.Equal(200, (await wire.ReadStreamAsync(1)).Status);
        await wire.SendHeadersAsync(5, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/five"));
        Assert.Equal(200, (await wire.ReadStreamAsync(5)).Status);

        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/one-again"));

        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(Http2Wire.StreamClosed, outcome.ResetError ?? outcome.GoAwayError);
        Assert.Equal(["/one", "/five"], origin.Requests.Select(request => request.Target));
    }
}
