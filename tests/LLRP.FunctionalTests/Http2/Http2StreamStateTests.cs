using System.Buffers.Binary;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// Stream states and identifiers (RFC 9113 §5.1, §5.1.1, §5.1.2), frame by frame (<see cref="Http2Wire"/>), against each
/// HTTP/2 server: frames on idle streams or stream 0, stream ids that are even or go down, a client's reset mid-response,
/// and streams past the concurrency limit.
/// </summary>
public sealed class Http2StreamStateTests
{
    // RFC 9113 §6.1: DATA on stream 0 is a connection error of type PROTOCOL_ERROR.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Data_OnStreamZero_ProtocolError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendDataAsync(0, "body"u8.ToArray(), endStream: true);

        await wire.ExpectConnectionErrorAsync(Http2Wire.ProtocolError);
    }

    // RFC 9113 §5.1: on an idle stream, any frame but HEADERS or PRIORITY is a connection error of type PROTOCOL_ERROR.
    [Theory]
    [MemberData(nameof(IdleStreamFrames))]
    public async Task FrameOnIdleStream_ProtocolError(string server, byte type)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        switch (type)
        {
            case Http2Wire.Data:
                await wire.SendDataAsync(1, "body"u8.ToArray(), endStream: true);
                break;
            case Http2Wire.RstStream:
                await wire.SendResetAsync(1);
                break;
            case Http2Wire.WindowUpdate:
                await wire.SendWindowUpdateAsync(1, 1000);
                break;
        }

        await wire.ExpectConnectionErrorAsync(Http2Wire.ProtocolError);
        Assert.Empty(origin.Requests);
    }

    // §6.1 DATA, §6.4 RST_STREAM, §6.9 WINDOW_UPDATE.
    public static TheoryData<string, byte> IdleStreamFrames => Http2Servers.Cross(Http2Wire.Data, Http2Wire.RstStream, Http2Wire.WindowUpdate);

    // RFC 9113 §5.1.1: a client's streams have odd ids; HEADERS on an even one is a connection error of type PROTOCOL_ERROR.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Headers_EvenStreamId_ProtocolError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(2, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/"));

        await wire.ExpectConnectionErrorAsync(Http2Wire.ProtocolError);
        Assert.Empty(origin.Requests);
    }

    // RFC 9113 §5.1.1: a new stream's id is greater than every one the client opened; a lower one is a connection error of
    // type PROTOCOL_ERROR, and that stream is not served. (Opening stream 5 closed the idle stream 3, §5.1.1, and §5.1
    // lets a frame on a closed stream be a connection error of type STREAM_CLOSED: either code ends the connection.)
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Headers_DecreasingStreamId_ProtocolError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(5, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/five"));
        Assert.Equal(200, (await wire.ReadStreamAsync(5)).Status);

        await wire.SendHeadersAsync(3, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/three"));
        var end = await wire.ReadConnectionEndAsync();

        Assert.Contains(end.ErrorCode, new int?[] { Http2Wire.ProtocolError, Http2Wire.StreamClosed });
        await wire.ExpectClosedAsync();
        Assert.Equal(["/five"], origin.Requests.Select(request => request.Target));
    }

    // RFC 9113 §5.1: on a stream half-closed (remote) by END_STREAM, DATA or HEADERS is a stream error of type
    // STREAM_CLOSED (a connection error ends the stream too); nothing more is forwarded.
    [Theory]
    [MemberData(nameof(AfterEndStream))]
    public async Task FrameAfterEndStream_StreamClosed(string server, byte type)
    {
        await using var origin = ScriptedOrigin.Holds();
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(1, endStream: false, Http2Wire.Request("POST", proxy.Authority, "/held", ("content-length", "4")));
        await wire.SendDataAsync(1, "body"u8.ToArray(), endStream: true);

        if (type == Http2Wire.Data)
        {
            await wire.SendDataAsync(1, "more"u8.ToArray(), endStream: true);
        }
        else
        {
            await wire.SendHeadersAsync(1, endStream: true, ("x-trailer", "1"));
        }

        var outcome = await wire.ReadStreamAsync(1);

        Assert.Null(outcome.Status);
        Assert.Equal(Http2Wire.StreamClosed, outcome.ResetError ?? outcome.GoAwayError);
        Assert.DoesNotContain(origin.Connections, connection => Encoding.Latin1.GetString(connection.Reader.Received).Contains("more", StringComparison.Ordinal));
    }

    public static TheoryData<string, byte> AfterEndStream => Http2Servers.Cross(Http2Wire.Data, Http2Wire.Headers);

    // RFC 9113 §6.1: DATA on a closed stream (its response complete) is a stream error of type STREAM_CLOSED, or (§5.1)
    // a connection error of that type.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Data_OnClosedStream_StreamClosed(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/"));
        Assert.Equal(200, (await wire.ReadStreamAsync(1)).Status);

        await wire.SendDataAsync(1, "late"u8.ToArray(), endStream: true);
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(Http2Wire.StreamClosed, outcome.ResetError ?? outcome.GoAwayError);
    }

    // RFC 9113 §5.1 and §6.4: once the client reset a stream, the server sends nothing more on it, and the connection
    // goes on serving other streams. The PING round trip (§6.7) proves the reset was processed before the origin goes on.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task ClientResetMidResponse_NothingMoreOnStreamConnectionUsable(string server)
    {
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            if (connection.Index > 0)
            {
                while (await connection.ReadRequestAsync() is not null)
                {
                    await connection.SendAsync(ScriptedOrigin.Ok);
                }

                return;
            }

            await connection.ReadRequestAsync();
            await connection.SendAsync("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\nfirst");
            await release.Task.WaitAsync(Deadline.Io);
            await connection.SendAsync(new string('x', 99_995));
        });
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/reset"));
        var received = new StringBuilder();
        while (!received.ToString().Contains("first", StringComparison.Ordinal))
        {
            var frame = await wire.ReadFrameAsync();
            Assert.False(frame.Type == Http2Wire.RstStream || frame.Type == Http2Wire.GoAway, $"Frame type {frame.Type} ended the response before it started.");
            if (frame.Type == Http2Wire.Data && frame.StreamId == 1)
            {
                received.Append(Encoding.Latin1.GetString(frame.Payload));
            }
        }

        await wire.SendResetAsync(1);
        await wire.PingRoundTripAsync(new byte[8]);
        release.SetResult();
        await wire.SendHeadersAsync(3, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/after"));
        var after = new List<Http2Wire.Frame>();
        Http2Wire.Frame last;
        do
        {
            last = await wire.ReadFrameAsync();
            after.Add(last);
        }
        while (last.StreamId != 3 || (last.Flags & Http2Wire.EndStream) == 0 || (last.Type != Http2Wire.Data && last.Type != Http2Wire.Headers));

        Assert.DoesNotContain(after, frame => frame.StreamId == 1);
        Assert.DoesNotContain(after, frame => frame.Type == Http2Wire.GoAway || frame.Type == Http2Wire.RstStream);
        Assert.Equal("ok", Encoding.Latin1.GetString([.. after.Where(frame => frame.Type == Http2Wire.Data).SelectMany(frame => frame.Payload)]));
    }

    // RFC 9113 §5.1.2: streams past the server's SETTINGS_MAX_CONCURRENT_STREAMS are refused (REFUSED_STREAM), never
    // forwarded; those within it are answered.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task MaxConcurrentStreamsExceeded_RefusedStreamOthersAnswered(string server)
    {
        const int max = 3, sent = 6;
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            while (await connection.ReadRequestAsync() is not null)
            {
                await release.Task.WaitAsync(Deadline.Io);
                await connection.SendAsync(ScriptedOrigin.Ok);
            }
        });
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url, $"limits.http2.maxConcurrentStreams={max}");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        Assert.Equal((uint)max, wire.ServerSettings[Http2Wire.MaxConcurrentStreams]);

        for (var i = 0; i < sent; i++)
        {
            await wire.SendHeadersAsync(1 + (2 * i), endStream: true, Http2Wire.Request("GET", proxy.Authority, $"/{1 + (2 * i)}"));
        }

        var refused = new List<int>();
        while (refused.Count < sent - max)
        {
            var frame = await wire.ReadFrameAsync();
            Assert.NotEqual(Http2Wire.GoAway, frame.Type);
            if (frame.Type == Http2Wire.RstStream)
            {
                Assert.Equal(Http2Wire.RefusedStream, BinaryPrimitives.ReadInt32BigEndian(frame.Payload));
                refused.Add(frame.StreamId);
            }
        }

        release.SetResult();
        var answered = new Dictionary<int, int>();
        var ended = new HashSet<int>();
        while (ended.Count < max)
        {
            var frame = await wire.ReadFrameAsync();
            Assert.False(frame.Type == Http2Wire.GoAway || frame.Type == Http2Wire.RstStream, $"Frame type {frame.Type} on stream {frame.StreamId} where a response was expected.");
            if (frame.Type == Http2Wire.Headers && !answered.ContainsKey(frame.StreamId))
            {
                answered[frame.StreamId] = Http2Wire.StatusOf(frame.Payload);
            }

            if ((frame.Type == Http2Wire.Headers || frame.Type == Http2Wire.Data) && (frame.Flags & Http2Wire.EndStream) != 0)
            {
                ended.Add(frame.StreamId);
            }
        }

        Assert.Equal([1, 3, 5], ended.Order());
        Assert.All(answered.Values, status => Assert.Equal(200, status));

        Assert.Equal([7, 9, 11], refused.Order());
        Assert.Equal(["/1", "/3", "/5"], origin.Requests.Select(request => request.Target).Order());
    }
}
