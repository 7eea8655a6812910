using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// Malformed requests (RFC 9113 §8.1.1, §8.2, §8.3), frame by frame (<see cref="Http2Wire"/>), against each HTTP/2 server:
/// each is a stream error of type PROTOCOL_ERROR (RST_STREAM, or a GOAWAY that ends the stream too, as the RFC lets a
/// server choose) and never reaches the origin.
/// </summary>
public sealed class Http2RequestValidationTests
{
    // RFC 9113 §8.2.1: field names are lowercase; §8.2.2: no connection-specific fields, te only "trailers"; §8.3:
    // pseudo-headers come first, each of :method, :scheme, :path exactly once and :path not empty (not CONNECT), none but
    // the request's; a request breaking these is malformed (§8.1.1).
    [Theory]
    [MemberData(nameof(MalformedHeads))]
    public async Task MalformedFieldSection_StreamProtocolErrorNotForwarded(string server, string malformation)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);
        var authority = proxy.Authority;

        (string, string)[] fields = malformation switch
        {
            "uppercase name" => Http2Wire.Request("GET", authority, "/", ("X-Upper", "1")),
            "pseudo-header after a regular field" => [(":method", "GET"), (":scheme", "http"), ("x-regular", "1"), (":authority", authority), (":path", "/")],
            "duplicate :path" => Http2Wire.Request("GET", authority, "/", (":path", "/again")),
            "duplicate :method" => [(":method", "GET"), .. Http2Wire.Request("GET", authority, "/")],
            "missing :method" => [(":scheme", "http"), (":authority", authority), (":path", "/")],
            "missing :scheme" => [(":method", "GET"), (":authority", authority), (":path", "/")],
            "missing :path" => [(":method", "GET"), (":scheme", "http"), (":authority", authority)],
            "empty :path" => Http2Wire.Request("GET", authority, ""),
            "unknown pseudo-header" => Http2Wire.Request("GET", authority, "/", (":unknown", "1")),
            "response pseudo-header" => Http2Wire.Request("GET", authority, "/", (":status", "200")),
            "connection" => Http2Wire.Request("GET", authority, "/", ("connection", "keep-alive")),
            "keep-alive" => Http2Wire.Request("GET", authority, "/", ("keep-alive", "timeout=5")),
            "proxy-connection" => Http2Wire.Request("GET", authority, "/", ("proxy-connection", "keep-alive")),
            "transfer-encoding" => Http2Wire.Request("GET", authority, "/", ("transfer-encoding", "chunked")),
            "upgrade" => Http2Wire.Request("GET", authority, "/", ("upgrade", "websocket")),
            "te other than trailers" => Http2Wire.Request("GET", authority, "/", ("te", "gzip")),
            _ => throw new ArgumentOutOfRangeException(nameof(malformation), malformation, null),
        };
        await wire.SendHeadersAsync(1, endStream: true, fields);
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Null(outcome.Status);
        Assert.Equal(Http2Wire.ProtocolError, outcome.ResetError ?? outcome.GoAwayError);
        Assert.Empty(origin.Requests);
    }

    public static TheoryData<string, string> MalformedHeads => Http2Servers.Cross(
        "uppercase name", "pseudo-header after a regular field", "duplicate :path", "duplicate :method", "missing :method",
        "missing :scheme", "missing :path", "empty :path", "unknown pseudo-header", "response pseudo-header",
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te other than trailers");

    // RFC 9113 §8.1.1: a content-length that the DATA frames' total does not match (short at END_STREAM, or exceeded)
    // makes the request malformed: a stream error of type PROTOCOL_ERROR; the origin never gets a whole request.
    [Theory]
    [MemberData(nameof(ContentLengthMismatches))]
    public async Task ContentLengthNotMatchingData_StreamProtocolErrorNotForwarded(string server, (string ContentLength, string Body) request)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: false, Http2Wire.Request("POST", proxy.Authority, "/upload", ("content-length", request.ContentLength)));
        await wire.SendDataAsync(1, System.Text.Encoding.ASCII.GetBytes(request.Body), endStream: true);
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Null(outcome.Status);
        Assert.Equal(Http2Wire.ProtocolError, outcome.ResetError ?? outcome.GoAwayError);
        Assert.Empty(origin.Requests);
    }

    public static TheoryData<string, (string, string)> ContentLengthMismatches => Http2Servers.Cross(("10", "short"), ("2", "too long"));

    // RFC 9113 §8.1: trailers are a HEADERS frame that ends the stream and carries no pseudo-header; one without
    // END_STREAM, or with a pseudo-header, makes the request malformed: a stream error of type PROTOCOL_ERROR. The origin
    // holds its answer, so no response can come before the reset (the body is whole by Content-Length before the trailers).
    [Theory]
    [MemberData(nameof(BadTrailers))]
    public async Task MalformedTrailers_StreamProtocolError(string server, string malformation)
    {
        await using var origin = ScriptedOrigin.Holds();
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: false, Http2Wire.Request("POST", proxy.Authority, "/upload", ("content-length", "4")));
        await wire.SendDataAsync(1, "body"u8.ToArray(), endStream: false);
        if (malformation == "without END_STREAM")
        {
            await wire.SendHeadersAsync(1, endStream: false, ("x-trailer", "1"));
        }
        else
        {
            await wire.SendHeadersAsync(1, endStream: true, (":path", "/again"));
        }

        var outcome = await wire.ReadStreamAsync(1);

        Assert.Null(outcome.Status);
        Assert.Equal(Http2Wire.ProtocolError, outcome.ResetError ?? outcome.GoAwayError);
    }

    public static TheoryData<string, string> BadTrailers => Http2Servers.Cross("without END_STREAM", "with a pseudo-header");

    // RFC 9113 §8.2.2: te is allowed with the value "trailers" alone; such a request is served.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task TeTrailers_Accepted(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/te", ("te", "trailers")));
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        Assert.Equal("/te", origin.SingleRequest().Target);
    }
}
