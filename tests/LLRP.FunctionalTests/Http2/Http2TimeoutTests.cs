using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// The front end's timeouts on HTTP/2 connections, frame by frame (<see cref="Http2Wire"/>), against each HTTP/2 server:
/// an idle connection (<c>timeouts.keepAliveMs</c>) and a field block left unfinished (<c>timeouts.requestHeadersMs</c>)
/// end, as on HTTP/1.1. The timeouts are short and every wait is bounded by <see cref="Deadline.Io"/>: nothing is timed.
/// </summary>
public sealed class Http2TimeoutTests
{
    // RFC 9113 §9.1: a server may close an idle connection, after a GOAWAY (§6.8) that names the last stream it processed.
    // The client's request must come before the timeout: 2 s leaves room for this process's thread-pool stalls (up to 1 s
    // measured on a loaded machine).
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task IdleConnection_EndedAfterKeepAliveTimeout(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url, "timeouts.keepAliveMs=2000");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/"));
        Assert.Equal(200, (await wire.ReadStreamAsync(1)).Status);

        var end = await wire.ReadConnectionEndAsync();

        Assert.True(end.ErrorCode is null or Http2Wire.NoError, $"Expected a graceful end, got GOAWAY with error {end.ErrorCode}.");
        Assert.True(end.LastStreamId is null or 1, $"The GOAWAY's last stream id is {end.LastStreamId}, not the stream processed.");
        await wire.ExpectClosedAsync();
    }

    // A field block that never ends (HEADERS without END_HEADERS, no CONTINUATION) is a request head that never
    // completes: the connection ends and nothing is forwarded.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task UnfinishedFieldBlock_EndedAfterRequestHeadersTimeout(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url, "timeouts.requestHeadersMs=500");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendFrameAsync(Http2Wire.Headers, Http2Wire.EndStream, 1, Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/")));
        await wire.ReadConnectionEndAsync();

        await wire.ExpectClosedAsync();
        Assert.Empty(origin.Requests);
    }
}
