using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// Flow control (RFC 9113 §5.2, §6.9), frame by frame (<see cref="Http2Wire"/>), against each HTTP/2 server: WINDOW_UPDATE
/// validity and overflow, a client sending past the server's window, and a response held to the client's window.
/// </summary>
public sealed class Http2FlowControlTests
{
    private const int MaxWindow = int.MaxValue;

    // RFC 9113 §6.9: a WINDOW_UPDATE of 0 on the connection is a connection error of type PROTOCOL_ERROR.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task WindowUpdate_ZeroOnConnection_ProtocolError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendWindowUpdateAsync(0, 0);

        await wire.ExpectConnectionErrorAsync(Http2Wire.ProtocolError);
    }

    // RFC 9113 §6.9: a WINDOW_UPDATE of 0 on a stream is a stream error of type PROTOCOL_ERROR (a connection error ends
    // the stream too): the stream gets no response.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task WindowUpdate_ZeroOnStream_ProtocolError(string server)
    {
        await using var origin = ScriptedOrigin.Holds();
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/held"));

        await wire.SendWindowUpdateAsync(1, 0);
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Null(outcome.Status);
        Assert.Equal(Http2Wire.ProtocolError, outcome.ResetError ?? outcome.GoAwayError);
    }

    // RFC 9113 §6.9.1: a WINDOW_UPDATE that takes the connection's window past 2^31-1 is a connection error of type
    // FLOW_CONTROL_ERROR.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task WindowUpdate_ConnectionWindowOverflow_FlowControlError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendWindowUpdateAsync(0, MaxWindow);

        await wire.ExpectConnectionErrorAsync(Http2Wire.FlowControlError);
    }

    // RFC 9113 §6.9.1: a WINDOW_UPDATE that takes a stream's window past 2^31-1 is a stream error of type
    // FLOW_CONTROL_ERROR (a connection error ends the stream too).
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task WindowUpdate_StreamWindowOverflow_FlowControlError(string server)
    {
        await using var origin = ScriptedOrigin.Holds();
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/held"));

        await wire.SendWindowUpdateAsync(1, MaxWindow);
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Null(outcome.Status);
        Assert.Equal(Http2Wire.FlowControlError, outcome.ResetError ?? outcome.GoAwayError);
    }

    // RFC 9113 §6.9.1: a client must not send more than the server's window; DATA past it is a FLOW_CONTROL_ERROR (stream
    // or connection). One DATA frame larger than the whole initial stream window (the server's frame size allows it)
    // exceeds it whatever the server has read meanwhile.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Data_BeyondStreamWindow_FlowControlError(string server)
    {
        const int window = 65_535;
        await using var origin = ScriptedOrigin.Holds();
        await using var proxy = await Http2Servers.StartProxyAsync(
            server, origin.Url, $"limits.http2.initialStreamWindowSize={window}", "limits.http2.maxFrameSize=131072");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        Assert.Equal((uint)window, wire.ServerSettings.GetValueOrDefault(Http2Wire.InitialWindowSize, (uint)window));
        Assert.Equal(131_072u, wire.ServerSettings[Http2Wire.MaxFrameSize]);

        await wire.SendHeadersAsync(1, endStream: false, Http2Wire.Request("POST", proxy.Authority, "/upload"));
        await wire.SendDataAsync(1, new byte[window + 1], endStream: true);
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Null(outcome.Status);
        Assert.Equal(Http2Wire.FlowControlError, outcome.ResetError ?? outcome.GoAwayError);
    }

    // RFC 9113 §6.9, §6.5.2: the server sends no more DATA than the client's SETTINGS_INITIAL_WINDOW_SIZE allows on the
    // stream until the client's WINDOW_UPDATE, then the rest. A PING round trip (§6.7) after the window is used up gives
    // the server every chance to overrun it.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task LargeResponse_HeldToClientWindowUntilWindowUpdate(string server)
    {
        const int window = 1_000, length = 200_000;
        var body = new string('x', length - 4) + "last";
        await using var origin = ScriptedOrigin.Respond($"HTTP/1.1 200 OK\r\nContent-Length: {length}\r\n\r\n{body}");
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port, (Http2Wire.InitialWindowSize, window));

        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/large"));
        var received = new StringBuilder();
        int? status = null;
        while (received.Length < window)
        {
            var frame = await wire.ReadFrameAsync();
            Assert.False(frame.Type is Http2Wire.RstStream or Http2Wire.GoAway, $"Frame type {frame.Type} ended the response.");
            status = frame is { Type: Http2Wire.Headers, StreamId: 1 } ? Http2Wire.StatusOf(frame.Payload) : status;
            received.Append(frame is { Type: Http2Wire.Data, StreamId: 1 } ? Encoding.Latin1.GetString(frame.Payload) : "");
        }

        var meanwhile = await wire.PingRoundTripAsync(new byte[8]);
        Assert.Equal(window, received.Length + meanwhile.Where(frame => frame is { Type: Http2Wire.Data, StreamId: 1 }).Sum(frame => frame.Payload.Length));

        await wire.SendWindowUpdateAsync(0, length);
        await wire.SendWindowUpdateAsync(1, length);
        var rest = await wire.ReadStreamAsync(1);

        Assert.Equal(200, status);
        Assert.Null(rest.ResetError);
        Assert.Null(rest.GoAwayError);
        Assert.Equal(body, received.Append(rest.Body).ToString());
    }

    // RFC 9113 §6.9.1: the connection's window (65,535 until the client's WINDOW_UPDATE on stream 0, whatever the
    // streams' windows) holds the response too; §4.2: no frame exceeds the client's SETTINGS_MAX_FRAME_SIZE (16,384 by
    // default).
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task LargeResponse_HeldToConnectionWindow_FramesWithinMaxFrameSize(string server)
    {
        const int connectionWindow = 65_535, maxFrameSize = 16_384, length = 200_000;
        var body = new string('y', length - 4) + "last";
        await using var origin = ScriptedOrigin.Respond($"HTTP/1.1 200 OK\r\nContent-Length: {length}\r\n\r\n{body}");
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port, (Http2Wire.InitialWindowSize, 1_000_000));

        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/large"));
        var frames = new List<Http2Wire.Frame>();
        while (frames.Where(frame => frame.Type == Http2Wire.Data).Sum(frame => frame.Payload.Length) < connectionWindow)
        {
            var frame = await wire.ReadFrameAsync();
            Assert.False(frame.Type is Http2Wire.RstStream or Http2Wire.GoAway, $"Frame type {frame.Type} ended the response.");
            frames.Add(frame);
        }

        frames.AddRange(await wire.PingRoundTripAsync(new byte[8]));
        Assert.Equal(connectionWindow, frames.Where(frame => frame.Type == Http2Wire.Data).Sum(frame => frame.Payload.Length));

        await wire.SendWindowUpdateAsync(0, length);
        while (frames[^1] is not { Type: Http2Wire.Data, StreamId: 1 } last || (last.Flags & Http2Wire.EndStream) == 0)
        {
            var frame = await wire.ReadFrameAsync();
            Assert.False(frame.Type is Http2Wire.RstStream or Http2Wire.GoAway, $"Frame type {frame.Type} ended the response.");
            frames.Add(frame);
        }

        Assert.All(frames, frame => Assert.InRange(frame.Payload.Length, 0, maxFrameSize));
        Assert.Equal(body, Encoding.Latin1.GetString([.. frames.Where(frame => frame is { Type: Http2Wire.Data, StreamId: 1 }).SelectMany(frame => frame.Payload)]));
    }

    // RFC 9113 §6.9, §5.2: a request body larger than the server's windows reaches the origin whole, the server
    // replenishing both windows with WINDOW_UPDATE as it goes; the client never sends past them.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task RequestBodyLargerThanWindows_ServerReplenishesThem(string server)
    {
        const int length = 300_000, maxFrameSize = 16_384;
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url, "limits.http2.initialStreamWindowSize=65535", "limits.http2.initialConnectionWindowSize=65535");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        var body = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Range(0, length / 10).Select(i => $"{i:D9}\n")));

        await wire.SendHeadersAsync(1, endStream: false, Http2Wire.Request("POST", proxy.Authority, "/upload", ("content-length", length.ToString())));
        long streamWindow = wire.ServerSettings.GetValueOrDefault(Http2Wire.InitialWindowSize, 65_535u), connectionWindow = 65_535;
        var sent = 0;
        while (sent < length)
        {
            var chunk = (int)Math.Min(Math.Min(maxFrameSize, length - sent), Math.Min(streamWindow, connectionWindow));
            if (chunk <= 0)
            {
                var frame = await wire.ReadFrameAsync();
                Assert.False(frame.Type is Http2Wire.RstStream or Http2Wire.GoAway, $"Frame type {frame.Type} ended the request.");
                if (frame.Type == Http2Wire.WindowUpdate)
                {
                    var increment = System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(frame.Payload);
                    streamWindow += frame.StreamId == 1 ? increment : 0;
                    connectionWindow += frame.StreamId == 0 ? increment : 0;
                }

                continue;
            }

            await wire.SendDataAsync(1, body[sent..(sent + chunk)], endStream: sent + chunk == length);
            sent += chunk;
            streamWindow -= chunk;
            connectionWindow -= chunk;
        }

        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        Assert.Equal(body, origin.SingleRequest().Body);
    }
}
