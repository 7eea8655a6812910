using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Hosting;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// Raw mode's own HTTP/2 client (<c>http2.client=llrp</c>) against a destination scripted frame by frame over a real
/// socket (<see cref="Http2Wire.AcceptAsync"/>), an HTTP/2 client in front of the proxy: what a well-behaved origin
/// never does (GOAWAY with streams in flight, resets mid-body, malformed fields, a tiny window, one stream per connection).
/// </summary>
public sealed class OwnHttp2ClientTests
{
    private const int OneMebibyte = 1024 * 1024;

    /// <summary>Raw mode's configurations with its own HTTP/2 client, over each transport and upstream strategy.</summary>
    public static TheoryData<string> OwnClientModes => new(LlrpModes.OwnHttp2Client);

    // RFC 9113 §6.8: a stream above the GOAWAY's last stream id was not processed; without a body it is sent again, on a
    // new connection (none goes on the one going away).
    [Fact]
    public async Task GoAway_StreamAboveLastStreamId_SentAgainOnANewConnection_Rfc9113_6_8()
    {
        await using var setup = await Setup.StartAsync();
        await using var client = await Http2Wire.ConnectAsync(setup.Proxy.Port);
        await client.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/first"));

        await using var first = await setup.AcceptAsync();
        var unprocessed = await ReadHeadersAsync(first);
        await first.SendGoAwayAsync(unprocessed - 1);
        await using var second = await setup.AcceptAsync();
        var sentAgain = await ReadHeadersAsync(second);
        await second.SendHeadersAsync(sentAgain, endStream: false, (":status", "200"));
        await second.SendDataAsync(sentAgain, "answered"u8.ToArray(), endStream: true);
        var outcome = await client.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        Assert.Equal("answered", outcome.Body.ToString());
        Assert.Null(outcome.ResetError);
    }

    // RFC 9110 §15.6.5: a destination that sends no response head within timeouts.responseHeadersMs is a 504; the head it
    // sends later reaches nobody, and the next request, whose exchange takes the same stream again, gets its own response.
    // The next answer comes from this process, whose thread-pool dispatch can stall for up to 1 s on a loaded machine:
    // the 2-s timeout leaves it room.
    [Fact]
    public async Task ResponseHeadersTimeout_LateHeadDropped_NextRequestGetsItsOwnResponse_Rfc9110_15_6_5()
    {
        await using var setup = await Setup.StartAsync(LlrpModes.RawPooledOwnHttp2, "timeouts.responseHeadersMs=2000");
        await using var client = await Http2Wire.ConnectAsync(setup.Proxy.Port);
        await client.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/slow"));

        await using var destination = await setup.AcceptAsync();
        var slow = await ReadHeadersAsync(destination);
        var timedOut = await client.ReadStreamAsync(1);
        await destination.SendHeadersAsync(slow, endStream: false, (":status", "200"));
        await destination.SendDataAsync(slow, "late"u8.ToArray(), endStream: true);
        await client.SendHeadersAsync(3, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/next"));
        var next = await ReadHeadersAsync(destination);
        await destination.SendHeadersAsync(next, endStream: false, (":status", "200"));
        await destination.SendDataAsync(next, "next"u8.ToArray(), endStream: true);
        var outcome = await client.ReadStreamAsync(3);

        Assert.Equal(504, timedOut.Status);
        Assert.Equal(200, outcome.Status);
        Assert.Equal("next", outcome.Body.ToString());
        Assert.Null(outcome.ResetError);
    }

    // RFC 9113 §6.4, §8.1: the destination resetting a stream after its response started resets the client's stream.
    [Fact]
    public async Task RstStreamFromDestination_MidBody_ClientStreamReset_Rfc9113_6_4()
    {
        await using var setup = await Setup.StartAsync();
        await using var client = await Http2Wire.ConnectAsync(setup.Proxy.Port);
        await client.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/"));

        await using var destination = await setup.AcceptAsync();
        var stream = await ReadHeadersAsync(destination);
        await destination.SendHeadersAsync(stream, endStream: false, (":status", "200"));
        await destination.SendDataAsync(stream, "part"u8.ToArray(), endStream: false);
        await destination.SendResetAsync(stream, Http2Wire.ProtocolError);
        var outcome = await client.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        Assert.NotNull(outcome.ResetError);
    }

    // RFC 9113 §6.9: 1 MiB up against a destination's 16 KiB stream window (opened again only as it reads), then 2 MiB
    // down, which passes the proxy's 1 MiB stream window only through the WINDOW_UPDATEs the proxy sends as it relays.
    [Fact]
    public async Task FlowControl_OneMebibyteUpAgainstSmallWindow_TwoMebibytesDown_Rfc9113_6_9()
    {
        const int window = 16 * 1024;
        await using var setup = await Setup.StartAsync();
        using var http = Http2Clients.Create();
        var upload = new byte[OneMebibyte];
        Random.Shared.NextBytes(upload);
        var exchange = http.PostAsync($"{setup.Proxy.Url}/upload", new ByteArrayContent(upload));

        await using var destination = await setup.AcceptAsync((Http2Wire.InitialWindowSize, window));
        var stream = await ReadHeadersAsync(destination);
        long received = 0, available = window, connectionAvailable = 65_535;
        while (true)
        {
            var frame = await destination.ReadFrameAsync();
            if (frame.Type != Http2Wire.Data)
            {
                continue;
            }

            received += frame.Payload.Length;
            available -= frame.Payload.Length;
            connectionAvailable -= frame.Payload.Length;
            Assert.True(available >= 0 && connectionAvailable >= 0, $"DATA past the window: stream {available}, connection {connectionAvailable}");
            if ((frame.Flags & Http2Wire.EndStream) != 0)
            {
                break;
            }

            if (frame.Payload.Length > 0)
            {
                await destination.SendWindowUpdateAsync(stream, frame.Payload.Length);
                await destination.SendWindowUpdateAsync(0, frame.Payload.Length);
                (available, connectionAvailable) = (available + frame.Payload.Length, connectionAvailable + frame.Payload.Length);
            }
        }

        await destination.SendHeadersAsync(stream, endStream: false, (":status", "200"));
        var sendWindow = (long)destination.ServerSettings[Http2Wire.InitialWindowSize];
        var chunk = new byte[16 * 1024];
        for (var sent = 0; sent < 2 * OneMebibyte; sent += chunk.Length)
        {
            while (sendWindow < chunk.Length)
            {
                var frame = await destination.ReadFrameAsync();
                if (frame.Type == Http2Wire.WindowUpdate && frame.StreamId == stream)
                {
                    sendWindow += BinaryPrimitives.ReadInt32BigEndian(frame.Payload);
                }
            }

            await destination.SendDataAsync(stream, chunk, endStream: sent + chunk.Length == 2 * OneMebibyte);
            sendWindow -= chunk.Length;
        }

        using var response = await Deadline.RunAsync(_ => new ValueTask<HttpResponseMessage>(exchange), "The response");
        var body = await response.Content.ReadAsByteArrayAsync();

        Assert.Equal(OneMebibyte, received);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(2 * OneMebibyte, body.Length);
    }

    // RFC 9113 §5.1.2: at the destination's SETTINGS_MAX_CONCURRENT_STREAMS of 1, a second stream in flight takes a second connection.
    [Fact]
    public async Task MaxConcurrentStreamsOne_SecondStreamOpensSecondConnection_Rfc9113_5_1_2()
    {
        await using var setup = await Setup.StartAsync();
        await using var client = await Http2Wire.ConnectAsync(setup.Proxy.Port);
        await client.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/one"));

        await using var first = await setup.AcceptAsync((Http2Wire.MaxConcurrentStreams, 1));
        var held = await ReadHeadersAsync(first);
        await client.SendHeadersAsync(3, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/two"));
        await using var second = await setup.AcceptAsync((Http2Wire.MaxConcurrentStreams, 1));
        var other = await ReadHeadersAsync(second);
        await second.SendHeadersAsync(other, endStream: true, (":status", "204"));
        var answeredSecond = await client.ReadStreamAsync(3);
        await first.SendHeadersAsync(held, endStream: true, (":status", "204"));
        var answeredFirst = await client.ReadStreamAsync(1);

        Assert.Equal((204, 204), (answeredSecond.Status, answeredFirst.Status));
    }

    // RFC 9113 §8.2.1, §8.1.1: an uppercase field name makes the response malformed: the destination's stream is reset
    // with PROTOCOL_ERROR and the client gets 502.
    [Fact]
    public async Task MalformedResponseField_DestinationStreamReset_Client502_Rfc9113_8_2_1()
    {
        await using var setup = await Setup.StartAsync();
        await using var client = await Http2Wire.ConnectAsync(setup.Proxy.Port);
        await client.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/"));

        await using var destination = await setup.AcceptAsync();
        var stream = await ReadHeadersAsync(destination);
        await destination.SendHeadersAsync(stream, endStream: true, (":status", "200"), ("Bad-Name", "x"));
        var reset = await ReadUntilAsync(destination, Http2Wire.RstStream);
        var outcome = await client.ReadStreamAsync(1);

        Assert.Equal((stream, Http2Wire.ProtocolError), (reset.StreamId, BinaryPrimitives.ReadInt32BigEndian(reset.Payload)));
        Assert.Equal(502, outcome.Status);
    }

    // RFC 9113 §6.7: a PING is answered with a PING carrying the ACK flag and the same 8 bytes.
    [Fact]
    public async Task Ping_AnsweredWithSamePayload_Rfc9113_6_7()
    {
        await using var setup = await Setup.StartAsync();
        await using var client = await Http2Wire.ConnectAsync(setup.Proxy.Port);
        await client.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/"));

        await using var destination = await setup.AcceptAsync();
        var stream = await ReadHeadersAsync(destination);
        byte[] payload = [1, 2, 3, 4, 5, 6, 7, 8];
        var frames = await destination.PingRoundTripAsync(payload);
        await destination.SendHeadersAsync(stream, endStream: true, (":status", "204"));

        Assert.Equal(payload, frames[^1].Payload);
        Assert.Equal(204, (await client.ReadStreamAsync(1)).Status);
    }

    // RFC 9113 §6.8: a connection that carried no stream for pool.idleTimeoutMs is closed, GOAWAY with NO_ERROR first (its
    // last stream id 0: a client processes no stream the server opens); the next request opens a new one.
    [Theory]
    [MemberData(nameof(OwnClientModes))]
    public async Task IdleConnection_GoAwayNoErrorThenClosed_NextRequestOnNewConnection_Rfc9113_6_8(string mode)
    {
        await using var setup = await Setup.StartAsync(mode, "pool.idleTimeoutMs=50");
        await using var client = await Http2Wire.ConnectAsync(setup.Proxy.Port);
        await client.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/first"));

        await using var first = await setup.AcceptAsync();
        var stream = await ReadHeadersAsync(first);
        await first.SendHeadersAsync(stream, endStream: true, (":status", "204"));
        var answered = await client.ReadStreamAsync(1);
        var end = await first.ReadConnectionEndAsync();
        await first.ExpectClosedAsync();
        await client.SendHeadersAsync(3, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/second"));
        await using var second = await setup.AcceptAsync();
        var next = await ReadHeadersAsync(second);
        await second.SendHeadersAsync(next, endStream: true, (":status", "204"));

        Assert.Equal(204, answered.Status);
        Assert.Equal((Http2Wire.NoError, 0), (end.ErrorCode, end.LastStreamId));
        Assert.Equal(204, (await client.ReadStreamAsync(3)).Status);
    }

    // RFC 9113 §6.8: only a connection that carried no stream is closed idle; one whose response stays open across several
    // sweeps gets no GOAWAY. The PING answered after them shows every frame the proxy sent meanwhile.
    [Fact]
    public async Task BusyConnection_NoGoAwayWhileAResponseIsOpen_Rfc9113_6_8()
    {
        await using var setup = await Setup.StartAsync(LlrpModes.RawPooledOwnHttp2, "pool.idleTimeoutMs=50");
        await using var client = await Http2Wire.ConnectAsync(setup.Proxy.Port);
        await client.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/held"));

        await using var first = await setup.AcceptAsync();
        var stream = await ReadHeadersAsync(first);
        await first.SendHeadersAsync(stream, endStream: false, (":status", "200"));
        // Several sweeps (one a second) pass while the response is open; the assertion holds however many ran.
        await Task.Delay(TimeSpan.FromSeconds(2.5));
        var meanwhile = await first.PingRoundTripAsync([8, 7, 6, 5, 4, 3, 2, 1]);
        await first.SendDataAsync(stream, "done"u8.ToArray(), endStream: true);
        var answered = await client.ReadStreamAsync(1);

        Assert.DoesNotContain(meanwhile, frame => frame.Type == Http2Wire.GoAway);
        Assert.Equal(200, answered.Status);
    }

    // RFC 9113 §6.8: the proxy's end disposes its HTTP/2 connections gracefully, GOAWAY with NO_ERROR, then closes them.
    [Fact]
    public async Task ProxyDisposed_ConnectionEndsWithGoAwayNoErrorThenClosed_Rfc9113_6_8()
    {
        var setup = await Setup.StartAsync();
        Http2Wire first;
        int answered;
        try
        {
            await using var client = await Http2Wire.ConnectAsync(setup.Proxy.Port);
            await client.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/only"));
            first = await setup.AcceptAsync();
            var stream = await ReadHeadersAsync(first);
            await first.SendHeadersAsync(stream, endStream: true, (":status", "204"));
            answered = (await client.ReadStreamAsync(1)).Status ?? 0;
        }
        finally
        {
            await setup.DisposeAsync();
        }

        await using (first)
        {
            var end = await first.ReadConnectionEndAsync();
            await first.ExpectClosedAsync();

            Assert.Equal(204, answered);
            Assert.Equal((Http2Wire.NoError, 0), (end.ErrorCode, end.LastStreamId));
        }
    }

    // RFC 9113 §3.4, §6.5.2: a client may send requests before the server's SETTINGS, but its SETTINGS_MAX_CONCURRENT_STREAMS
    // is unknown until then: streams go on a new connection only once its SETTINGS arrived, so at a limit of 1 the two
    // streams asked meanwhile take one connection each, and no HEADERS comes before our SETTINGS are acknowledged.
    [Fact]
    public async Task LateSettingsWithMaxConcurrentStreamsOne_NoStreamBeforeThem_SecondStreamOnSecondConnection_Rfc9113_3_4()
    {
        await using var setup = await Setup.StartAsync();
        await using var client = await Http2Wire.ConnectAsync(setup.Proxy.Port);
        await client.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/one"));

        await using var first = await Http2Wire.AcceptWithoutSettingsAsync(setup.Listener);
        await client.SendHeadersAsync(3, endStream: true, Http2Wire.Request("GET", setup.Proxy.Authority, "/two"));
        await client.PingRoundTripAsync([1, 2, 3, 4, 5, 6, 7, 8]);
        // Time for the second stream to reach the proxy's client before the SETTINGS do; the assertions hold however long it takes.
        await Task.Delay(200);
        await first.SendSettingsAsync((Http2Wire.MaxConcurrentStreams, 1));
        var beforeAck = new List<byte>();
        while (await first.ReadFrameAsync() is var frame && (frame.Type != Http2Wire.Settings || (frame.Flags & Http2Wire.Ack) == 0))
        {
            beforeAck.Add(frame.Type);
        }

        var held = await ReadHeadersAsync(first);
        await using var second = await setup.AcceptAsync((Http2Wire.MaxConcurrentStreams, 1));
        var other = await ReadHeadersAsync(second);
        await second.SendHeadersAsync(other, endStream: true, (":status", "204"));
        await first.SendHeadersAsync(held, endStream: true, (":status", "204"));
        var statuses = new Dictionary<int, int>();
        while (statuses.Count < 2)
        {
            var answer = await client.ReadFrameAsync();
            if (answer.Type == Http2Wire.Headers)
            {
                statuses[answer.StreamId] = Http2Wire.StatusOf(answer.Payload);
            }
        }

        Assert.DoesNotContain(Http2Wire.Headers, beforeAck);
        Assert.Equal(new Dictionary<int, int> { [1] = 204, [3] = 204 }, statuses);
    }

    /// <summary>Reads frames up to the first of <paramref name="type"/>.</summary>
    private static async Task<Http2Wire.Frame> ReadUntilAsync(Http2Wire wire, byte type)
    {
        while (true)
        {
            var frame = await wire.ReadFrameAsync();
            if (frame.Type == type)
            {
                return frame;
            }
        }
    }

    /// <summary>Reads frames up to a request's HEADERS; returns its stream id.</summary>
    private static async Task<int> ReadHeadersAsync(Http2Wire wire) => (await ReadUntilAsync(wire, Http2Wire.Headers)).StreamId;

    /// <summary>A listener the destination's connections are accepted from, and the proxy in raw mode with its own HTTP/2 client in front of it.</summary>
    private sealed class Setup : IAsyncDisposable
    {
        private readonly TcpListener _listener;

        private Setup(TcpListener listener, HostedApp proxy) => (_listener, Proxy) = (listener, proxy);

        public HostedApp Proxy { get; }

        /// <summary>Where the proxy's connections to the destination arrive.</summary>
        public TcpListener Listener => _listener;

        public static Task<Setup> StartAsync() => StartAsync(LlrpModes.RawPooledOwnHttp2);

        /// <param name="mode">One of <see cref="LlrpModes.OwnHttp2Client"/>.</param>
        /// <param name="settings">More proxy settings (<c>key=value</c>).</param>
        public static async Task<Setup> StartAsync(string mode, params string[] settings)
        {
            var listener = new TcpListener(IPAddress.Loopback, 0);
            listener.Start();
            try
            {
                var port = ((IPEndPoint)listener.LocalEndpoint).Port;
                var proxy = await HostedApp.StartAsync(ProxyHost.Build(
                [
                    "--urls=http://127.0.0.1:0",
                    "--ReverseProxy:Routes:all:ClusterId=h2",
                    "--ReverseProxy:Routes:all:Match:Path={**any}",
                    $"--ReverseProxy:Clusters:h2:Destinations:scripted:Address=http://127.0.0.1:{port}",
                    "--ReverseProxy:Clusters:h2:HttpRequest:Version=2",
                    "--ReverseProxy:Clusters:h2:HttpRequest:VersionPolicy=RequestVersionExact",
                    .. LlrpModes.Settings(mode).Concat(settings).Select(setting => "--" + setting),
                ]));
                return new Setup(listener, proxy);
            }
            catch
            {
                listener.Stop();
                throw;
            }
        }

        /// <summary>The next connection the proxy opens to the destination, past the preface; our SETTINGS are <paramref name="settings"/>.</summary>
        public Task<Http2Wire> AcceptAsync(params (ushort Id, uint Value)[] settings) => Http2Wire.AcceptAsync(_listener, settings);

        public async ValueTask DisposeAsync()
        {
            await Proxy.DisposeAsync();
            _listener.Stop();
        }
    }
}
