using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// The defences of LLRP's own HTTP/2 server against the floods RFC 9113 §10.5 names, frame by frame
/// (<see cref="Http2Wire"/>): streams reset or refused faster than answered (CVE-2023-44487), empty frames without their
/// END flag, a header block that never ends (the CONTINUATION flood), and a head over the field size limit. Kestrel
/// defends itself otherwise (its limits and codes differ), so these run against LLRP's server alone.
/// </summary>
public sealed class OwnServerHardeningTests
{
    /// <summary>Raw mode with pooled upstream connections on LLRP's own HTTP/2 server.</summary>
    internal static string OwnServer => Http2Servers.Mode(Http2Servers.Llrp, LlrpModes.RawPooled);

    // RFC 9113 §10.5 and CVE-2023-44487 ("rapid reset"): streams opened and reset at once, never answered, take the
    // server's work without limit unless counted; past the reset credit (2 × limits.http2.maxConcurrentStreams, at least
    // 200) the connection ends with ENHANCE_YOUR_CALM.
    [Fact]
    public async Task StreamsResetFasterThanAnswered_EnhanceYourCalm()
    {
        await using var origin = ScriptedOrigin.Start(async connection => await connection.Reader.ReadToEndAsync());
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServer, "limits.http2.maxConcurrentStreams=10");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        for (var i = 0; i <= 200; i++)
        {
            var id = 1 + (2 * i);
            await wire.SendHeadersAsync(id, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/"));
            await wire.SendResetAsync(id);
        }

        await wire.ExpectConnectionErrorAsync(Http2Wire.EnhanceYourCalm);
    }

    // RFC 9113 §10.5 (CVE-2019-9518): empty DATA frames without END_STREAM carry nothing and cost the server a frame each:
    // past 100 in a row the connection ends with ENHANCE_YOUR_CALM. Kestrel's server takes them on and keeps the connection.
    [Fact]
    public async Task EmptyDataFramesFlood_EnhanceYourCalm()
    {
        await using var origin = ScriptedOrigin.Start(async connection => await connection.Reader.ReadToEndAsync());
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServer);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: false, Http2Wire.Request("POST", proxy.Authority, "/upload"));
        for (var i = 0; i <= 100; i++)
        {
            await wire.SendDataAsync(1, [], endStream: false);
        }

        await wire.ExpectConnectionErrorAsync(Http2Wire.EnhanceYourCalm);
    }

    // RFC 9113 §6.10 and §10.5.1: a header block is bounded by the header list size the server announced; one that goes on
    // in CONTINUATION frames past twice that (Huffman's worst case) is a flood: the connection ends with
    // ENHANCE_YOUR_CALM, and nothing reaches the origin.
    [Fact]
    public async Task ContinuationFlood_EnhanceYourCalmNothingForwarded()
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServer, "limits.maxRequestHeadersTotalSize=8192");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendFrameAsync(Http2Wire.Headers, 0, 1, Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/")));
        var junk = new byte[4096];
        for (var i = 0; i < 5; i++)
        {
            await wire.SendFrameAsync(Http2Wire.Continuation, 0, 1, junk);
        }

        await wire.ExpectConnectionErrorAsync(Http2Wire.EnhanceYourCalm);
        Assert.Empty(origin.Requests);
    }

    // RFC 6585 §5 and RFC 9113 §8.1: a field over limits.http2.maxHeaderFieldSize is answered 431 and never forwarded; the
    // stream ends there and the connection goes on serving.
    [Fact]
    public async Task FieldOverSizeLimit_431NotForwarded()
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServer, "limits.http2.maxHeaderFieldSize=100");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/", ("x-big", new string('a', 200))));
        var refused = await wire.ReadStreamAsync(1);
        await wire.SendHeadersAsync(3, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/next"));
        var next = await wire.ReadStreamAsync(3);

        Assert.Equal(431, refused.Status);
        Assert.Equal(200, next.Status);
        Assert.Equal("/next", origin.SingleRequest().Target);
    }

    // The keep-alive timeout of HTTP/1.1 (timeouts.keepAliveMs) holds for a connection with no stream open: it ends with a
    // graceful GOAWAY (RFC 9113 §6.8, NO_ERROR) naming the last stream answered. The request must come before the
    // timeout: 2 s leaves room for this process's thread-pool stalls (up to 1 s measured on a loaded machine).
    [Fact]
    public async Task IdlePastKeepAliveTimeout_GoAwayNoError()
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServer, "timeouts.keepAliveMs=2000");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/"));
        Assert.Equal(200, (await wire.ReadStreamAsync(1)).Status);

        Assert.Equal(1, await wire.ExpectConnectionErrorAsync(Http2Wire.NoError));
    }

    // The request headers timeout of HTTP/1.1 (timeouts.requestHeadersMs) bounds a header block left open (HEADERS without
    // END_HEADERS, no CONTINUATION): the connection ends with GOAWAY, and nothing reaches the origin.
    [Fact]
    public async Task HeaderBlockLeftOpen_ConnectionEndsAtRequestHeadersTimeout()
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServer, "timeouts.requestHeadersMs=500");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendFrameAsync(Http2Wire.Headers, 0, 1, Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/")));

        Assert.Equal(0, await wire.ExpectConnectionErrorAsync(Http2Wire.NoError));
        Assert.Empty(origin.Requests);
    }
}
