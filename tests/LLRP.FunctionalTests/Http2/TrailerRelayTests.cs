using System.Text;
using LLRP.Downstream;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// Trailers across protocol versions (RFC 9110 §6.5): a destination's response trailers reach an HTTP/2 client as
/// trailers and an HTTP/1.1 client that sent <c>TE: trailers</c> (RFC 9110 §10.1.4) in the trailer section of a chunked
/// body (RFC 9112 §7.1.2), in every mode; an HTTP/2 client's request trailers end the chunked body raw mode's pooled connections send;
/// on every path the fields RFC 9110 §6.5.1 keeps out of a trailer section are dropped.
/// </summary>
public sealed class TrailerRelayTests
{
    /// <summary>Raw mode's pooled strategy over each transport, with and without <c>te: trailers</c> in the request.</summary>
    public static TheoryData<string, bool> PooledModesWithTe
        => LlrpModes.Cross(Http2Servers.OnEvery([LlrpModes.RawPooled, .. LlrpModes.RawOverSockets.Where(mode => mode == LlrpModes.RawPooledSockets)]), false, true);

    private const string ChunkedWithTrailers =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: x-checksum\r\n\r\n2\r\nok\r\n0\r\nx-checksum: 42\r\nContent-Type: text/trailer\r\nSet-Cookie: a=b\r\n\r\n";

    // RFC 9110 §6.5.1: framing, authentication and content-format fields have no meaning in a trailer section; the
    // others reach the HTTP/2 client as trailers.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task ResponseTrailers_FieldsNotAllowedInTrailersDropped_Rfc9110_6_5_1(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ChunkedWithTrailers);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var client = Http2Clients.Create();

        using var response = await client.GetAsync($"{proxy.Url}/", HttpCompletionOption.ResponseHeadersRead);
        Assert.Equal("ok", await response.Content.ReadAsStringAsync());

        Assert.Equal("42", Assert.Single(response.TrailingHeaders.GetValues("x-checksum")));
        Assert.False(response.TrailingHeaders.NonValidated.Contains("content-type"));
        Assert.False(response.TrailingHeaders.NonValidated.Contains("set-cookie"));
    }

    // RFC 9110 §10.1.4 and RFC 9112 §7.1.2: an HTTP/2 origin's trailers reach an HTTP/1.1 client that sent TE: trailers
    // in the trailer section of the chunked body (without the fields RFC 9110 §6.5.1 forbids); one that did not gets none.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Http11Client_TrailersOfHttp2Origin_InChunkedTrailerSection_Rfc9112_7_1_2(string mode)
    {
        await using var origin = await HostedApp.StartAsync(DownstreamHost.Build(["--urls=http://127.0.0.1:0", "--Kestrel:EndpointDefaults:Protocols=Http2"]));
        await using var proxy = await Http11ToHttp2Tests.StartProxyAsync(origin, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /trailers HTTP/1.1\r\nHost: example\r\nTE: trailers\r\nConnection: TE\r\n\r\n");
        var accepted = await client.ReadResponseAsync();
        var relayed = client.LastTrailers;
        await client.SendAsync("GET /trailers HTTP/1.1\r\nHost: example\r\n\r\n");
        var declined = await client.ReadResponseAsync();

        Assert.Equal(BodyFraming.Chunked, accepted.Framing);
        Assert.Equal([new HttpField("x-checksum", "42")], relayed);
        Assert.Equal(BodyFraming.Chunked, declined.Framing);
        Assert.Empty(client.LastTrailers);
    }

    // RFC 9112 §7.1.2: the trailer section of an HTTP/1.1 origin's chunked response reaches an HTTP/1.1 client that sent
    // TE: trailers (RFC 9110 §10.1.4), the fields RFC 9110 §6.5.1 forbids dropped; the next response on the connection
    // (to a request without TE) carries none, and the connections stay in step.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Http11Client_ChunkedTrailersOfHttp11Origin_Relayed_Rfc9112_7_1_2(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ChunkedWithTrailers);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /first HTTP/1.1\r\nHost: example\r\nTE: trailers\r\nConnection: TE\r\n\r\n");
        var accepted = await client.ReadResponseAsync();
        var relayed = client.LastTrailers;
        await client.SendAsync("GET /second HTTP/1.1\r\nHost: example\r\n\r\n");
        var declined = await client.ReadResponseAsync();

        Assert.Equal("ok", accepted.BodyText);
        Assert.Equal([new HttpField("x-checksum", "42")], relayed);
        Assert.Equal("ok", declined.BodyText);
        Assert.Empty(client.LastTrailers);
        Assert.Equal(["trailers", null], origin.Requests.Select(request => request.Head.Get("TE")));
    }

    // RFC 9113 §8.1: over HttpClient (an HTTP/2 cluster, in every mode) a request's trailers cannot be sent on
    // (HttpRequestMessage has none): the request still reaches the origin whole, without them, and is answered.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task RequestTrailers_ToHttp2Cluster_DroppedRequestForwardedWhole_Rfc9113_8_1(string mode)
    {
        await using var origin = await HostedApp.StartAsync(DownstreamHost.Build(["--urls=http://127.0.0.1:0", "--Kestrel:EndpointDefaults:Protocols=Http2"]));
        await using var proxy = await Http11ToHttp2Tests.StartProxyAsync(origin, mode);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: false, [(":method", "POST"), (":scheme", "http"), (":authority", proxy.Authority), (":path", "/trailers")]);
        await wire.SendDataAsync(1, "body"u8.ToArray(), endStream: false);
        await wire.SendHeadersAsync(1, endStream: true, [("x-checksum", "42")]);
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        Assert.Null(outcome.ResetError);
        Assert.Equal("", outcome.Body.ToString());
    }

    // RFC 9113 §8.1: over raw mode's own HTTP/2 client, a request's trailers go on to the HTTP/2 origin as a field block
    // ending the stream, without the fields RFC 9110 §6.5.1 forbids.
    [Theory]
    [MemberData(nameof(OwnHttp2ClientModes))]
    public async Task RequestTrailers_ToHttp2Cluster_OverOwnClient_ReachTheOrigin_Rfc9113_8_1(string mode)
    {
        await using var origin = await HostedApp.StartAsync(DownstreamHost.Build(["--urls=http://127.0.0.1:0", "--Kestrel:EndpointDefaults:Protocols=Http2"]));
        await using var proxy = await Http11ToHttp2Tests.StartProxyAsync(origin, mode);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: false, [(":method", "POST"), (":scheme", "http"), (":authority", proxy.Authority), (":path", "/trailers")]);
        await wire.SendDataAsync(1, "body"u8.ToArray(), endStream: false);
        await wire.SendHeadersAsync(1, endStream: true, [("x-checksum", "42"), ("set-cookie", "a=b")]);
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        Assert.Null(outcome.ResetError);
        Assert.Equal("x-checksum: 42\n", outcome.Body.ToString());
    }

    /// <summary>Raw mode with its own HTTP/2 client, on every HTTP/2 server.</summary>
    public static TheoryData<string> OwnHttp2ClientModes => new(Http2Servers.OnEvery(LlrpModes.OwnHttp2Client));

    // RFC 9113 §8.1: an HTTP/2 client's trailers (a HEADERS frame after the DATA, ending the stream) end the chunked body
    // sent to an HTTP/1.1 destination over raw mode's pooled connections (RFC 9112 §7.1.2), without the fields RFC 9110
    // §6.5.1 forbids; a request with te: trailers (RFC 9110 §10.1.4, as gRPC's) takes the same path and keeps its TE.
    [Theory]
    [MemberData(nameof(PooledModesWithTe))]
    public async Task RequestTrailers_FromHttp2Client_EndChunkedBodyUpstream_Rfc9113_8_1(string mode, bool teTrailers)
    {
        var received = new TaskCompletionSource<IReadOnlyList<HttpField>>(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            var request = await connection.ReadRequestAsync();
            received.TrySetResult(request is null ? [] : connection.Reader.LastTrailers);
            await connection.SendAsync(ScriptedOrigin.Ok);
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        (string, string)[] head = [(":method", "POST"), (":scheme", "http"), (":authority", proxy.Authority), (":path", "/upload")];
        await wire.SendHeadersAsync(1, endStream: false, teTrailers ? [.. head, ("te", "trailers")] : head);
        await wire.SendDataAsync(1, "body"u8.ToArray(), endStream: false);
        await wire.SendHeadersAsync(1, endStream: true, [("x-checksum", "42"), ("content-type", "text/trailer")]);
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        Assert.Equal("ok", outcome.Body.ToString());
        Assert.Equal([new HttpField("x-checksum", "42")], await received.Task.WaitAsync(Deadline.Io));
        Assert.Equal("body", Encoding.Latin1.GetString(origin.SingleRequest().Body));
        Assert.Equal(teTrailers ? "trailers" : null, origin.SingleRequest().Head.Get("TE"));
    }
}
