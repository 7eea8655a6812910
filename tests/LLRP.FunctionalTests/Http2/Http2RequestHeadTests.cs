using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// The head an HTTP/2 request becomes for the HTTP/1.1 rules (LLRP's own server writes it as bytes while it decodes the
/// fields): what the origin receives, and what is refused as an HTTP/1.1 request with the same fields is refused.
/// </summary>
public sealed class Http2RequestHeadTests
{
    // RFC 9113 §8.2.3: a client may split cookie pairs into separate cookie fields; they are joined with "; " into one
    // field before the request goes on as HTTP/1.1, which allows one Cookie line (RFC 6265 §5.4). Both servers.
    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task CookieFieldsSplit_OneJoinedLineForwarded_Rfc9113Section8_2_3(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/c", ("cookie", "a=1"), ("x-between", "2"), ("cookie", "b=3")));
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(200, outcome.Status);
        var forwarded = origin.SingleRequest().Head;
        Assert.Equal(["a=1; b=3"], forwarded.GetAll("cookie"));
        Assert.Equal("2", forwarded.Get("x-between"));
    }

    // RFC 9113 §8.3.1 with RFC 9112 §3.2: a Host that agrees with :authority (host names are case-insensitive, RFC 9110
    // §4.2.3) is one Host; a second Host field, even an agreeing one, makes the HTTP/1.1 head carry two: 400, nothing forwarded.
    [Theory]
    [InlineData(new[] { "A.TEST" }, 200)]
    [InlineData(new[] { "a.test", "a.test" }, 400)]
    public async Task OwnServer_HostBesideAuthority_OneHostOr400_Rfc9113Section8_3_1(string[] hosts, int status)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(Http2Servers.Llrp, origin.Url);
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", "a.test", "/h", [.. hosts.Select(host => ("host", host))]));
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(status, outcome.Status);
        Assert.Equal(status == 200 ? 1 : 0, origin.Requests.Count);
        if (status == 200)
        {
            Assert.Equal("a.test", origin.SingleRequest().Head.Get("X-Forwarded-Host"));
        }
    }

    // The HTTP/1.1 parser's rules hold for HTTP/2 requests (RFC 9110 §7.2: a Host that is no valid authority is refused, 400
    // by RFC 9112 §3.2): a request refused over HTTP/1.1 is refused with the same status over HTTP/2, nothing forwarded.
    [Theory]
    [InlineData("a b.test")]
    [InlineData("a.test:port")]
    public async Task OwnServer_AuthorityRefusedOverHttp11_RefusedAlikeOverHttp2(string authority)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(Http2Servers.Llrp, origin.Url);
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync($"GET /a HTTP/1.1\r\nHost: {authority}\r\n\r\n");
        var http11 = await client.ReadResponseAsync();
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port);

        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", authority, "/a"));
        var outcome = await wire.ReadStreamAsync(1);

        Assert.Equal(400, http11.StatusCode);
        Assert.Equal(http11.StatusCode, outcome.Status);
        Assert.Empty(origin.Requests);
    }
}
