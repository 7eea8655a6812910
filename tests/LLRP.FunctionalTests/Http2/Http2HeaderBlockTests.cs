using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// Field blocks, frame by frame (<see cref="Http2Wire"/>), against each HTTP/2 server: HEADERS and CONTINUATION
/// (RFC 9113 §4.3, §6.10) and HPACK decoding (RFC 7541): Huffman-coded strings and the dynamic table, bad indexes and
/// table size updates.
/// </summary>
public sealed class Http2HeaderBlockTests
{
    // RFC 9113 §6.2, §6.10: a field block split over HEADERS and CONTINUATION frames is one block; the request is served.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task BlockSplitOverContinuation_Served(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        var block = Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/split", ("x-split", "one-block")));

        await wire.SendFrameAsync(Http2Wire.Headers, Http2Wire.EndStream, 1, block[..5]);
        await wire.SendFrameAsync(Http2Wire.Continuation, 0, 1, block[5..20]);
        await wire.SendFrameAsync(Http2Wire.Continuation, 0, 1, []);
        await wire.SendFrameAsync(Http2Wire.Continuation, Http2Wire.EndHeaders, 1, block[20..]);
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        var forwarded = origin.SingleRequest();
        Assert.Equal("/split", forwarded.Target);
        Assert.Equal("one-block", forwarded.Head.Get("x-split"));
    }

    // RFC 9113 §6.10: CONTINUATION that follows no HEADERS (or one with END_HEADERS) is a connection error of type
    // PROTOCOL_ERROR.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Continuation_WithoutOpenHeaderBlock_ProtocolError(string server)
    {
        await using var origin = ScriptedOrigin.Holds();
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/"));
        await wire.SendFrameAsync(Http2Wire.Continuation, Http2Wire.EndHeaders, 1, Http2Wire.FieldBlock(("x-late", "1")));

        await wire.ExpectConnectionErrorAsync(Http2Wire.ProtocolError);
    }

    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Continuation_OnIdleStream_ProtocolError(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendFrameAsync(Http2Wire.Continuation, Http2Wire.EndHeaders, 1, Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/")));

        await wire.ExpectConnectionErrorAsync(Http2Wire.ProtocolError);
        Assert.Empty(origin.Requests);
    }

    // RFC 9113 §4.3, §6.10: a field block is contiguous: any other frame (or a CONTINUATION of another stream) before
    // its END_HEADERS is a connection error of type PROTOCOL_ERROR; the request is not served.
    [Theory]
    [MemberData(nameof(InterleavedFrames))]
    public async Task FrameInsideHeaderBlock_ProtocolError(string server, string interleaved)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        var block = Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/"));

        await wire.SendFrameAsync(Http2Wire.Headers, Http2Wire.EndStream, 1, block[..5]);
        switch (interleaved)
        {
            case "PING":
                await wire.SendPingAsync(new byte[8]);
                break;
            case "HEADERS":
                await wire.SendHeadersAsync(3, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/"));
                break;
            case "CONTINUATION of another stream":
                await wire.SendFrameAsync(Http2Wire.Continuation, 0, 3, block[5..]);
                break;
            case "unknown type":
                await wire.SendFrameAsync(0xfa, 0, 1, [1, 2, 3]);
                break;
        }

        await wire.SendFrameAsync(Http2Wire.Continuation, Http2Wire.EndHeaders, 1, block[5..]);

        await wire.ExpectConnectionErrorAsync(Http2Wire.ProtocolError);
        Assert.Empty(origin.Requests);
    }

    public static TheoryData<string, string> InterleavedFrames => Http2Servers.Cross("PING", "HEADERS", "CONTINUATION of another stream", "unknown type");

    // RFC 7541 Appendix C.4.1 and C.4.2: two requests with Huffman-coded strings, the second indexing the first's
    // :authority from the dynamic table (§2.3.2): both are served, with the decoded fields.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task HuffmanCodedRequests_Appendix_C4_Served(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        // :method GET, :scheme http, :path /, :authority www.example.com (Huffman, incremental indexing).
        byte[] first = [0x82, 0x86, 0x84, 0x41, 0x8c, 0xf1, 0xe3, 0xc2, 0xe5, 0xf2, 0x3a, 0x6b, 0xa0, 0xab, 0x90, 0xf4, 0xff];

        // The same, :authority from the dynamic table (index 62), and cache-control: no-cache (Huffman).
        byte[] second = [0x82, 0x86, 0x84, 0xbe, 0x58, 0x86, 0xa8, 0xeb, 0x10, 0x64, 0x9c, 0xbf];
        await wire.SendFrameAsync(Http2Wire.Headers, Http2Wire.EndHeaders | Http2Wire.EndStream, 1, first);
        var firstOutcome = await wire.ReadStreamAsync(1);
        await wire.SendFrameAsync(Http2Wire.Headers, Http2Wire.EndHeaders | Http2Wire.EndStream, 3, second);
        var secondOutcome = await wire.ReadStreamAsync(3);

        Assert.Equal(200, firstOutcome.Status);
        Assert.Equal(200, secondOutcome.Status);
        var requests = origin.Requests;
        Assert.Equal(2, requests.Count);
        Assert.All(requests, request => Assert.Equal("www.example.com", request.Head.Get("X-Forwarded-Host")));
        Assert.Null(requests[0].Head.Get("cache-control"));
        Assert.Equal("no-cache", requests[1].Head.Get("cache-control"));
    }

    // RFC 7541 §2.3.3: an index past the static table with an empty dynamic table is a decoding error: a connection error
    // of type COMPRESSION_ERROR (RFC 9113 §4.3), nothing forwarded.
    [Theory]
    [MemberData(nameof(BadIndexes))]
    public async Task IndexOutOfTable_CompressionError(string server, byte indexed)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        byte[] block = [.. Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/")), indexed];
        await wire.SendFrameAsync(Http2Wire.Headers, Http2Wire.EndHeaders | Http2Wire.EndStream, 1, block);

        await wire.ExpectConnectionErrorAsync(Http2Wire.CompressionError);
        Assert.Empty(origin.Requests);
    }

    // 0xbe: index 62, the first dynamic entry; 0xf0: index 112.
    public static TheoryData<string, byte> BadIndexes => Http2Servers.Cross<byte>(0xbe, 0xf0);

    // RFC 7541 §5.2: Huffman padding that is not the most significant bits of EOS (all ones), or longer than 7 bits, is a
    // decoding error; §5.1: an integer past what the decoder can hold is one too: COMPRESSION_ERROR.
    [Theory]
    [MemberData(nameof(BadEncodings))]
    public async Task MalformedHpack_CompressionError(string server, string malformation)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        // A literal without indexing (RFC 7541 §6.2.2) of new name "x-h" with a Huffman-coded value: '0' is 00000 (Appendix B).
        byte[] field = malformation switch
        {
            "Huffman padding not ones" => [0x00, 0x03, (byte)'x', (byte)'-', (byte)'h', 0x81, 0x00],
            "Huffman padding over 7 bits" => [0x00, 0x03, (byte)'x', (byte)'-', (byte)'h', 0x82, 0x07, 0xff],
            "integer overflow" => [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
            _ => throw new ArgumentOutOfRangeException(nameof(malformation), malformation, null),
        };
        byte[] block = [.. Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/")), .. field];
        await wire.SendFrameAsync(Http2Wire.Headers, Http2Wire.EndHeaders | Http2Wire.EndStream, 1, block);

        await wire.ExpectConnectionErrorAsync(Http2Wire.CompressionError);
        Assert.Empty(origin.Requests);
    }

    public static TheoryData<string, string> BadEncodings => Http2Servers.Cross("Huffman padding not ones", "Huffman padding over 7 bits", "integer overflow");

    // RFC 9113 §10.5.1: a field section larger than the server takes (limits.maxRequestHeadersTotalSize) is refused, with
    // 431 or a stream or connection error, and never forwarded.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task FieldSectionOverLimit_RefusedNotForwarded(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url, "limits.maxRequestHeadersTotalSize=4096");
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        (string, string)[] many = [.. Enumerable.Range(0, 10).Select(i => ($"x-field-{i}", new string('v', 1_000)))];
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/", many));
        var outcome = await wire.ReadStreamAsync(1);

        Assert.True(outcome.Status is null or 431, $"Expected 431 or no response, got {outcome.Status}.");
        Assert.True(outcome.Status is not null || outcome.ResetError is not null || outcome.GoAwayError is not null, "The stream ended without an answer or error.");
        Assert.Empty(origin.Requests);
    }

    // RFC 7541 §4.2, §6.3: a dynamic table size update above the SETTINGS_HEADER_TABLE_SIZE the server advertised (4,096
    // by default, RFC 9113 §6.5.2), or after a field in the block, is a decoding error: COMPRESSION_ERROR.
    [Theory]
    [MemberData(nameof(BadSizeUpdates))]
    public async Task DynamicTableSizeUpdate_Invalid_CompressionError(string server, string where)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        var advertised = wire.ServerSettings.GetValueOrDefault(Http2Wire.HeaderTableSize, 4_096u);
        var fields = Http2Wire.FieldBlock(Http2Wire.Request("GET", proxy.Authority, "/"));

        byte[] block = where == "above the advertised size"
            ? [.. SizeUpdate(advertised + 1), .. fields]
            : [.. fields, .. SizeUpdate(0)];
        await wire.SendFrameAsync(Http2Wire.Headers, Http2Wire.EndHeaders | Http2Wire.EndStream, 1, block);

        await wire.ExpectConnectionErrorAsync(Http2Wire.CompressionError);
        Assert.Empty(origin.Requests);
    }

    public static TheoryData<string, string> BadSizeUpdates => Http2Servers.Cross("above the advertised size", "after a field");

    /// <summary>A dynamic table size update (RFC 7541 §6.3): 001 and the size as an integer with a 5-bit prefix (§5.1).</summary>
    private static byte[] SizeUpdate(uint size)
    {
        if (size < 31)
        {
            return [(byte)(0x20 | size)];
        }

        var bytes = new List<byte> { 0x3f };
        size -= 31;
        while (size >= 0x80)
        {
            bytes.Add((byte)((size & 0x7f) | 0x80));
            size >>= 7;
        }

        bytes.Add((byte)size);
        return [.. bytes];
    }
}
