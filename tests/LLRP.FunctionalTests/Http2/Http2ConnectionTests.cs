using System.Buffers.Binary;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// The connection as a whole, frame by frame (<see cref="Http2Wire"/>), against each HTTP/2 server: the preface and
/// SETTINGS exchange (RFC 9113 §3.4, §6.5), PING (§6.7), frame sizes (§4.2), frames to ignore (§5.5, §5.3.2), PUSH_PROMISE
/// from a client (§8.4), and GOAWAY both ways (§6.8).
/// </summary>
public sealed class Http2ConnectionTests
{
    // RFC 9113 §3.4: a connection preface that is not the magic string is a connection error of type PROTOCOL_ERROR: no
    // HTTP/2 server takes the connection, which ends (HTTP/1.1 may answer it first), with no request served.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Preface_Corrupted_ConnectionEndsUnserved(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.OpenAsync(proxy.Port);

        await wire.SendRawAsync([.. "PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n"u8, .. new byte[9]]);
        var received = await wire.ReadToEndAsync();

        Assert.False(received.Length >= 9 && received[3] == Http2Wire.Settings, "The server answered the corrupted preface with SETTINGS.");
        var text = Encoding.ASCII.GetString(received);
        Assert.True(text.Length == 0 || text.StartsWith("HTTP/1.1 4", StringComparison.Ordinal) || text.StartsWith("HTTP/1.1 5", StringComparison.Ordinal), $"Expected nothing or an HTTP/1.1 error, got: {text}");
        Assert.Empty(origin.Requests);
    }

    // RFC 9113 §3.4: the server's preface is a SETTINGS frame, its first frame; §6.5.3: the client's SETTINGS is
    // acknowledged with an empty SETTINGS frame with ACK.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Settings_ServerSendsItsFirst_AndAcknowledgesOurs(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.OpenAsync(proxy.Port);

        await wire.SendRawAsync(Http2Wire.Preface);
        await wire.SendSettingsAsync((Http2Wire.EnablePush, 0), (Http2Wire.InitialWindowSize, 100_000));
        var first = await wire.ReadFrameAsync();
        Assert.Equal(Http2Wire.Settings, first.Type);
        Assert.Equal(0, first.Flags & Http2Wire.Ack);
        Assert.Equal(0, first.StreamId);

        Http2Wire.Frame ack;
        do
        {
            ack = await wire.ReadFrameAsync();
        }
        while (ack.Type != Http2Wire.Settings || (ack.Flags & Http2Wire.Ack) == 0);

        Assert.Equal(0, ack.StreamId);
        Assert.Empty(ack.Payload);
    }

    // RFC 9113 §6.5.2: ENABLE_PUSH other than 0 or 1 and MAX_FRAME_SIZE outside 2^14..2^24-1 are connection errors of type
    // PROTOCOL_ERROR; INITIAL_WINDOW_SIZE above 2^31-1 one of type FLOW_CONTROL_ERROR.
    [Theory]
    [MemberData(nameof(BadSettings))]
    public async Task Settings_ValueOutOfRange_ConnectionError(string server, (ushort Id, uint Value, int Error) setting)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendSettingsAsync((setting.Id, setting.Value));

        await wire.ExpectConnectionErrorAsync(setting.Error);
    }

    public static TheoryData<string, (ushort, uint, int)> BadSettings => Http2Servers.Cross<(ushort, uint, int)>(
        (Http2Wire.EnablePush, 2, Http2Wire.ProtocolError),
        (Http2Wire.InitialWindowSize, 0x8000_0000, Http2Wire.FlowControlError),
        (Http2Wire.MaxFrameSize, 16_383, Http2Wire.ProtocolError),
        (Http2Wire.MaxFrameSize, 1 << 24, Http2Wire.ProtocolError));

    // RFC 9113 §6.5: SETTINGS on a stream is a connection error of type PROTOCOL_ERROR.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Settings_OnStream_ProtocolError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendFrameAsync(Http2Wire.Settings, 0, 1, []);

        await wire.ExpectConnectionErrorAsync(Http2Wire.ProtocolError);
    }

    // RFC 9113 §6.5: a SETTINGS length not a multiple of 6, or an ACK with a payload, is a connection error of type
    // FRAME_SIZE_ERROR.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Settings_LengthNotMultipleOfSix_FrameSizeError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendFrameAsync(Http2Wire.Settings, 0, 0, [0, 3, 0, 0, 1]);

        await wire.ExpectConnectionErrorAsync(Http2Wire.FrameSizeError);
    }

    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Settings_AckWithPayload_FrameSizeError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendFrameAsync(Http2Wire.Settings, Http2Wire.Ack, 0, [0, 3, 0, 0, 0, 1]);

        await wire.ExpectConnectionErrorAsync(Http2Wire.FrameSizeError);
    }

    // RFC 9113 §6.7: a PING is answered with a PING with ACK and the same 8 bytes.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Ping_EchoedWithAckAndSamePayload(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        byte[] payload = [1, 2, 3, 4, 5, 6, 7, 8];

        var pong = (await wire.PingRoundTripAsync(payload))[^1];

        Assert.Equal(0, pong.StreamId);
        Assert.Equal(payload, pong.Payload);
    }

    // RFC 9113 §6.7: a PING whose length is not 8 is a connection error of type FRAME_SIZE_ERROR; one on a stream, of
    // type PROTOCOL_ERROR.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Ping_WrongLength_FrameSizeError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendPingAsync(new byte[7]);

        await wire.ExpectConnectionErrorAsync(Http2Wire.FrameSizeError);
    }

    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Ping_OnStream_ProtocolError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendFrameAsync(Http2Wire.Ping, 0, 1, new byte[8]);

        await wire.ExpectConnectionErrorAsync(Http2Wire.ProtocolError);
    }

    // RFC 9113 §4.2: a frame larger than the server's SETTINGS_MAX_FRAME_SIZE is a FRAME_SIZE_ERROR, a connection error
    // for a frame carrying a field block; nothing of it is forwarded.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Frame_LargerThanMaxFrameSize_FrameSizeError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        var maxFrameSize = (int)wire.ServerSettings.GetValueOrDefault(Http2Wire.MaxFrameSize, 16_384u);

        var block = Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/", ("x-big", new string('a', maxFrameSize))));
        await wire.SendFrameAsync(Http2Wire.Headers, Http2Wire.EndHeaders | Http2Wire.EndStream, 1, block);

        await wire.ExpectConnectionErrorAsync(Http2Wire.FrameSizeError);
        Assert.Empty(origin.Requests);
    }

    // RFC 9113 §6.4, §6.9: RST_STREAM and WINDOW_UPDATE are 4 bytes long; another length is a connection error of type
    // FRAME_SIZE_ERROR.
    [Theory]
    [MemberData(nameof(FixedLengthFrames))]
    public async Task FixedLengthFrame_WrongLength_FrameSizeError(string server, byte type)
    {
        await using var origin = ScriptedOrigin.Holds();
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/held"));

        await wire.SendFrameAsync(type, 0, type == Http2Wire.RstStream ? 1 : 0, [0, 0, 1]);

        await wire.ExpectConnectionErrorAsync(Http2Wire.FrameSizeError);
    }

    public static TheoryData<string, byte> FixedLengthFrames => Http2Servers.Cross(Http2Wire.RstStream, Http2Wire.WindowUpdate);

    // RFC 9113 §6.3: a PRIORITY frame not 5 bytes long is a stream error of type FRAME_SIZE_ERROR (a connection error
    // ends the stream too).
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Priority_WrongLength_FrameSizeError(string server)
    {
        await using var origin = ScriptedOrigin.Holds();
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/held"));

        await wire.SendFrameAsync(Http2Wire.Priority, 0, 1, [0, 0, 0, 0]);
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Null(outcome.Status);
        Assert.Equal(Http2Wire.FrameSizeError, outcome.ResetError ?? outcome.GoAwayError);
    }

    // RFC 9113 §6.8: GOAWAY on a stream is a connection error of type PROTOCOL_ERROR.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task GoAway_OnStream_ProtocolError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendFrameAsync(Http2Wire.GoAway, 0, 1, new byte[8]);

        await wire.ExpectConnectionErrorAsync(Http2Wire.ProtocolError);
    }

    // RFC 9113 §6.9.2: a SETTINGS_INITIAL_WINDOW_SIZE change that takes an open stream's window past 2^31-1 is a
    // connection error of type FLOW_CONTROL_ERROR.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Settings_InitialWindowSizeChangeOverflowsStreamWindow_FlowControlError(string server)
    {
        await using var origin = ScriptedOrigin.Holds();
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/held"));

        await wire.SendWindowUpdateAsync(1, int.MaxValue - 65_535);
        await wire.SendSettingsAsync((Http2Wire.InitialWindowSize, 65_536));

        await wire.ExpectConnectionErrorAsync(Http2Wire.FlowControlError);
    }

    // RFC 9113 §5.5, §4.1: frames of an unknown type are ignored, on the connection and on a stream.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task UnknownFrameType_Ignored(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendFrameAsync(0xfa, 0xff, 0, [1, 2, 3]);
        await wire.SendHeadersAsync(1, endStream: false, Http2Wire.Request("POST", proxy.Authority, "/", ("content-length", "2")));
        await wire.SendFrameAsync(0xfa, 0, 1, [4, 5, 6]);
        await wire.SendDataAsync(1, "hi"u8.ToArray(), endStream: true);
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        Assert.Equal("hi", origin.SingleRequest().BodyText);
    }

    // RFC 9113 §5.3.2: PRIORITY is ignored, for an idle stream as for an open one; it opens no stream (§5.1).
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Priority_Ignored(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        byte[] dependsOnNothing = [0, 0, 0, 0, 16];

        await wire.SendFrameAsync(Http2Wire.Priority, 0, 3, dependsOnNothing);
        await wire.SendHeadersAsync(1, endStream: false, Http2Wire.Request("GET", proxy.Authority, "/first"));
        await wire.SendFrameAsync(Http2Wire.Priority, 0, 1, dependsOnNothing);
        await wire.SendDataAsync(1, [], endStream: true);
        var first = await wire.ReadStreamAsync(1);
        await wire.SendHeadersAsync(3, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/second"));
        var second = await wire.ReadStreamAsync(3);

        Assert.Equal(200, first.Status);
        Assert.Equal(200, second.Status);
        Assert.Equal(["/first", "/second"], origin.Requests.Select(request => request.Target));
    }

    // RFC 9113 §8.4: a client cannot push; PUSH_PROMISE from it is a connection error of type PROTOCOL_ERROR.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task PushPromise_FromClient_ProtocolError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        byte[] promised = [0, 0, 0, 2, .. Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/pushed"))];
        await wire.SendFrameAsync(Http2Wire.PushPromise, Http2Wire.EndHeaders, 1, promised);

        await wire.ExpectConnectionErrorAsync(Http2Wire.ProtocolError);
        Assert.Empty(origin.Requests);
    }

    // RFC 9113 §6.8: a client's GOAWAY stops new streams, not those it already opened: the open stream still completes.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task GoAwayFromClient_OpenStreamStillCompletes(string server)
    {
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = HeldUntil(release.Task);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/held"));
        await Deadline.UntilAsync(() => origin.Requests.Count == 1, "The held request reaching the origin");
        await wire.SendGoAwayAsync(0);
        await wire.PingRoundTripAsync(new byte[8]);
        release.SetResult();
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        Assert.Equal("ok", outcome.Body.ToString());
    }

    // RFC 9113 §6.8: a server that stops sends GOAWAY (NO_ERROR) and lets the streams it already took complete; once the
    // client, told, closes its connection, the proxy has stopped.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task GracefulStop_GoAwayThenOpenStreamCompletes(string server)
    {
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = HeldUntil(release.Task);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url, "shutdownTimeoutMs=30000");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/held"));
        await Deadline.UntilAsync(() => origin.Requests.Count == 1, "The held request reaching the origin");

        using var stopLimit = new CancellationTokenSource(Deadline.Io);
        var stopping = proxy.StopAsync(stopLimit.Token);
        Http2Wire.Frame goAway;
        do
        {
            goAway = await wire.ReadFrameAsync();
        }
        while (goAway.Type != Http2Wire.GoAway);

        Assert.Equal(Http2Wire.NoError, BinaryPrimitives.ReadInt32BigEndian(goAway.Payload.AsSpan(4)));
        Assert.True((BinaryPrimitives.ReadInt32BigEndian(goAway.Payload) & int.MaxValue) >= 1, "The GOAWAY's last stream id excludes the open stream.");
        Assert.False(stopping.IsCompleted, "The proxy stopped before its open stream completed.");
        release.SetResult();
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        Assert.Equal("ok", outcome.Body.ToString());
        await wire.DisposeAsync();
        await stopping.WaitAsync(Deadline.Io);
    }

    /// <summary>An origin that answers each request with <see cref="ScriptedOrigin.Ok"/> once <paramref name="release"/> completes.</summary>
    private static ScriptedOrigin HeldUntil(Task release) => ScriptedOrigin.Start(async connection =>
    {
        while (await connection.ReadRequestAsync() is not null)
        {
            await release.WaitAsync(Deadline.Io);
            await connection.SendAsync(ScriptedOrigin.Ok);
        }
    });
}
