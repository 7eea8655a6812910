using System.Text;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Http2.Codec;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// An HTTP/1.1 destination's response fields as an HTTP/2 client receives them, read frame by frame
/// (<see cref="Http2Wire"/>) and decoded with HPACK (RFC 7541), every mode on every server; raw mode's pooled strategy on
/// LLRP's own server, which takes them as bytes, field for field.
/// </summary>
public sealed class Http2ResponseFieldsTests
{
    private const string HopByHopResponse =
        "HTTP/1.1 200 OK\r\nConnection: keep-alive, X-Hop\r\nSet-Cookie: a=1; Path=/\r\nKeep-Alive: timeout=5\r\nX-Hop: 1\r\n"
        + "Cache-Control: no-cache\r\nProxy-Connection: keep-alive\r\nUpgrade: h2c\r\nSet-Cookie: b=2\r\nX-Custom-Name: Mixed Case\r\n"
        + "Content-Length: 2\r\n\r\nok";

    private static readonly string[] ConnectionSpecific = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "x-hop"];

    /// <summary>Raw mode's pooled strategy over each transport on LLRP's own server: the response fields given as bytes.</summary>
    public static TheoryData<string> OwnServerPooledModes
        => new(Http2Servers.Mode(Http2Servers.Llrp, LlrpModes.RawPooled), Http2Servers.Mode(Http2Servers.Llrp, LlrpModes.RawPooledSockets));

    /// <summary>
    /// RFC 9113 §8.2.2: no connection-specific field (nor one <c>Connection</c> names, RFC 9110 §7.6.1) reaches the HTTP/2
    /// client; the end-to-end fields do, names lowercase (§8.2.1), each Set-Cookie line its own field in order (RFC 9110 §5.3).
    /// </summary>
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task ConnectionSpecificFieldsLeftOut_OthersRelayed_Rfc9113Section8_2_2(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(HopByHopResponse);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);

        var response = await GetAsync(proxy, "GET", "/");

        Assert.Equal(200, response.Status);
        Assert.DoesNotContain(response.Fields, field => ConnectionSpecific.Contains(field.Name));
        Assert.All(response.Fields, field => Assert.Equal(field.Name.ToLowerInvariant(), field.Name));
        Assert.Equal(
            ["cache-control: no-cache", "content-length: 2", "set-cookie: a=1; Path=/", "set-cookie: b=2", "x-custom-name: Mixed Case"],
            response.Fields.Where(field => field.Name is "set-cookie" or "cache-control" or "x-custom-name" or "content-length")
                .OrderBy(field => field.Name, StringComparer.Ordinal).Select(field => $"{field.Name}: {field.Value}"));
        Assert.Equal("ok", response.Body);
    }

    /// <summary>On LLRP's own server the field block holds exactly the destination's end-to-end fields, in its order, then content-length.</summary>
    [Theory]
    [MemberData(nameof(OwnServerPooledModes))]
    public async Task OwnServer_ExactlyTheEndToEndFields_InOrder(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(HopByHopResponse);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);

        var response = await GetAsync(proxy, "GET", "/");

        Assert.Equal(
            ["set-cookie: a=1; Path=/", "cache-control: no-cache", "set-cookie: b=2", "x-custom-name: Mixed Case", "content-length: 2"],
            response.Fields.Select(field => $"{field.Name}: {field.Value}"));
    }

    /// <summary>
    /// RFC 9110 §9.3.2, §15.3.5 and §15.4.5: a response to HEAD keeps its content-length and has no body; a 204 has neither;
    /// a 304 keeps its validators and its content-length, and has no body; a chunked response loses its Transfer-Encoding
    /// (RFC 9113 §8.2.2) and gets no content-length.
    /// </summary>
    [Theory]
    [MemberData(nameof(OwnServerPooledModes))]
    public async Task OwnServer_BodilessAndChunkedResponses(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(request => request.Target switch
        {
            _ when request.Method == "HEAD" => "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n",
            "/empty" => "HTTP/1.1 204 No Content\r\nX-A: 1\r\n\r\n",
            "/cached" => "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: 7\r\n\r\n",
            _ => "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-B: 2\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);

        var head = await GetAsync(proxy, "HEAD", "/");
        var empty = await GetAsync(proxy, "GET", "/empty");
        var cached = await GetAsync(proxy, "GET", "/cached");
        var chunked = await GetAsync(proxy, "GET", "/chunked");

        Assert.Equal((200, "content-type: text/plain, content-length: 5", ""), Summary(head));
        Assert.Equal((204, "x-a: 1", ""), Summary(empty));
        Assert.Equal((304, "etag: \"v1\", content-length: 7", ""), Summary(cached));
        Assert.Equal((200, "x-b: 2", "hello"), Summary(chunked));
    }

    private static (int, string, string) Summary(Response response)
        => (response.Status, string.Join(", ", response.Fields.Select(field => $"{field.Name}: {field.Value}")), response.Body);

    /// <summary>Sends one request on a connection of its own and reads its response: every field block decoded in order, the DATA as Latin-1.</summary>
    private static async Task<Response> GetAsync(HostedApp proxy, string method, string path)
    {
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request(method, proxy.Authority, path));
        var decoder = new HpackDecoder(4096, int.MaxValue);
        var fields = new FieldList();
        var body = new StringBuilder();
        var block = new List<byte>();
        while (true)
        {
            var frame = await wire.ReadFrameAsync();
            Assert.NotEqual(Http2Wire.RstStream, frame.Type);
            Assert.NotEqual(Http2Wire.GoAway, frame.Type);
            if (frame.StreamId != 1)
            {
                continue;
            }

            if (frame.Type is Http2Wire.Headers or Http2Wire.Continuation)
            {
                block.AddRange(frame.Payload);
                if ((frame.Flags & Http2Wire.EndHeaders) != 0)
                {
                    decoder.Decode(block.ToArray(), fields);
                    block.Clear();
                }
            }
            else if (frame.Type == Http2Wire.Data)
            {
                body.Append(Encoding.Latin1.GetString(frame.Payload));
            }

            if ((frame.Flags & Http2Wire.EndStream) != 0 && frame.Type is Http2Wire.Headers or Http2Wire.Data)
            {
                var status = fields.Single(field => field.Name == ":status");
                return new Response(int.Parse(status.Value), [.. fields.Where(field => field.Name != ":status")], body.ToString());
            }
        }
    }

    private sealed record Response(int Status, List<(string Name, string Value)> Fields, string Body);

    private sealed class FieldList : List<(string Name, string Value)>, IHeaderSink
    {
        public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value) => Add((Encoding.Latin1.GetString(name), Encoding.Latin1.GetString(value)));
    }
}
