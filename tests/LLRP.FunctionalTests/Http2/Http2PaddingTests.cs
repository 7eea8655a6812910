using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// Padding and priority fields of DATA and HEADERS (RFC 9113 §6.1, §6.2), frame by frame (<see cref="Http2Wire"/>), against
/// each HTTP/2 server: dropped when valid, a connection error when the padding does not fit the frame.
/// </summary>
public sealed class Http2PaddingTests
{
    // RFC 9113 §6.1, §6.2: the padding (and HEADERS' priority fields) are not content: the request reaches the origin
    // with its fields and body alone.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task PaddedHeadersAndData_PaddingDropped(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        byte[] priority = [0, 0, 0, 0, 16];
        var block = Http2Wire.FieldBlock(Http2Wire.Request("POST", proxy.Authority, "/padded", ("content-length", "5")));
        await wire.SendFrameAsync(Http2Wire.Headers, Http2Wire.EndHeaders | Http2Wire.Padded | Http2Wire.PriorityFlag, 1, Http2Wire.WithPadding(7, [.. priority, .. block]));
        await wire.SendFrameAsync(Http2Wire.Data, Http2Wire.Padded, 1, Http2Wire.WithPadding(20, "hel"u8.ToArray()));
        await wire.SendFrameAsync(Http2Wire.Data, Http2Wire.Padded | Http2Wire.EndStream, 1, Http2Wire.WithPadding(0, "lo"u8.ToArray()));
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        var forwarded = origin.SingleRequest();
        Assert.Equal("/padded", forwarded.Target);
        Assert.Equal("hello", forwarded.BodyText);
    }

    // RFC 9113 §6.1, §6.2: a pad length equal to or greater than the frame's payload length is a connection error of type
    // PROTOCOL_ERROR; nothing of the request is forwarded.
    [Theory]
    [MemberData(nameof(PadTooLong))]
    public async Task PadLengthNotBelowPayload_ProtocolError(string server, (byte Type, int Excess) frame)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        var block = Http2Wire.FieldBlock(Http2Wire.Request("POST", proxy.Authority, "/", ("content-length", "4")));

        if (frame.Type == Http2Wire.Headers)
        {
            // The payload is the pad length's byte and the field block; the pad length is that whole length, or more.
            byte[] payload = [(byte)(1 + block.Length + frame.Excess), .. block];
            await wire.SendFrameAsync(Http2Wire.Headers, Http2Wire.EndHeaders | Http2Wire.EndStream | Http2Wire.Padded, 1, payload);
        }
        else
        {
            await wire.SendHeadersAsync(1, endStream: false, Http2Wire.Request("POST", proxy.Authority, "/", ("content-length", "4")));
            byte[] payload = [(byte)(5 + frame.Excess), .. "body"u8];
            await wire.SendFrameAsync(Http2Wire.Data, Http2Wire.EndStream | Http2Wire.Padded, 1, payload);
        }

        var outcome = await wire.ReadStreamAsync(1);

        Assert.Null(outcome.Status);
        Assert.Equal(Http2Wire.ProtocolError, outcome.GoAwayError);
        await wire.ExpectClosedAsync();
        Assert.DoesNotContain(origin.Requests, request => request.Body.Length > 0);
    }

    public static TheoryData<string, (byte, int)> PadTooLong => Http2Servers.Cross<(byte, int)>(
        (Http2Wire.Headers, 0), (Http2Wire.Headers, 1), (Http2Wire.Data, 0), (Http2Wire.Data, 1));
}
