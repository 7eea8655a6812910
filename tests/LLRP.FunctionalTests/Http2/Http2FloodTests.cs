using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// Floods a server must bound, frame by frame (<see cref="Http2Wire"/>), against each HTTP/2 server (RFC 9113 §10.5): the
/// connection ends (GOAWAY, at best ENHANCE_YOUR_CALM, or a close) instead of the server working or queuing without end.
/// </summary>
public sealed class Http2FloodTests
{
    // RFC 9113 §10.5 (CVE-2023-44487, rapid reset): a client opening streams and resetting them at once costs the server
    // a request each, outside MAX_CONCURRENT_STREAMS; past a bound the server ends the connection, and serves no more.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task RapidReset_ConnectionEnded(string server)
    {
        const int pairs = 100_000, perWrite = 500;
        await using var origin = ScriptedOrigin.Holds();
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        var end = Task.Run(wire.ReadConnectionEndAsync);
        var block = Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/"));

        var ended = false;
        for (var first = 0; first < pairs && !ended && !end.IsCompleted; first += perWrite)
        {
            var write = new List<byte>();
            for (var i = first; i < first + perWrite; i++)
            {
                var streamId = 1 + (2 * i);
                write.AddRange(Http2Wire.FrameBytes(Http2Wire.Headers, Http2Wire.EndHeaders | Http2Wire.EndStream, streamId, block));
                write.AddRange(Http2Wire.FrameBytes(Http2Wire.RstStream, 0, streamId, [0, 0, 0, Http2Wire.Cancel]));
            }

            try
            {
                await wire.SendRawAsync([.. write]);
            }
            catch (IOException)
            {
                ended = true;
            }
        }

        var goAway = await end;
        Assert.True(ended || goAway.ErrorCode is not null, $"The server took {pairs} opened and reset streams without ending the connection.");
        Assert.NotEqual(Http2Wire.NoError, goAway.ErrorCode);
        await wire.ExpectClosedAsync();
    }

    // RFC 9113 §10.5 (CVE-2024-27316): a field block that never ends (CONTINUATION after CONTINUATION, without
    // END_HEADERS) must not be buffered or decoded without bound: a connection error ends it.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task EndlessContinuation_ConnectionError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        var end = Task.Run(wire.ReadConnectionEndAsync);

        await wire.SendFrameAsync(Http2Wire.Headers, 0, 1, Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/")));
        var fragment = Http2Wire.FieldBlock([.. Enumerable.Repeat(("x-flood", new string('a', 100)), 100)]);
        var ended = await wire.FloodAsync(Http2Wire.FrameBytes(Http2Wire.Continuation, 0, 1, fragment), 64L << 20);

        var goAway = await end;
        Assert.True(ended || goAway.ErrorCode is not null, "The connection stayed open.");
        Assert.NotEqual(Http2Wire.NoError, goAway.ErrorCode);
        await wire.ExpectClosedAsync();
        Assert.Empty(origin.Requests);
    }
}
