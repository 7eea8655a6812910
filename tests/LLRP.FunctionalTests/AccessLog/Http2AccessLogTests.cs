using System.Text.Json;
using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Http2;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.AccessLog;

/// <summary>
/// The access log of HTTP/2 clients: one line per request stream, in the HTTP/1.1 lines' format and fields, the request
/// shown as <c>METHOD target HTTP/2</c> (the protocol version received, as RFC 9110 §7.6.3's Via names it).
/// </summary>
public sealed class Http2AccessLogTests
{
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task Combined_OneLinePerStream_ProtocolHttp2(string mode)
    {
        using var log = new AccessLogFile();
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, log.Setting);
        using var client = Http2Clients.Create();

        using var request = new HttpRequestMessage(HttpMethod.Get, $"{proxy.Url}/a?b=1") { Version = client.DefaultRequestVersion, VersionPolicy = client.DefaultVersionPolicy };
        request.Headers.Referrer = new Uri("http://from.test/");
        request.Headers.UserAgent.ParseAdd("test/1");
        using var response = await client.SendAsync(request);
        Assert.Equal("ok", await response.Content.ReadAsStringAsync());

        // A stream's line is written once its exchange has ended, which the client may see a moment before.
        Assert.Matches(AccessLogTests.Combined("GET /a?b=1 HTTP/2", 200, 2, "http://from.test/", "test/1", "default", $"{origin.Url}/", "200"), Assert.Single(await log.WaitForLinesAsync(1)));
        Assert.Equal("ok", await client.GetStringAsync($"{proxy.Url}/c"));
        var lines = await log.WaitForLinesAsync(2);
        Assert.Matches(AccessLogTests.Combined("GET /c HTTP/2", 200, 2, "-", "-", "default", $"{origin.Url}/", "200"), lines[1]);
    }

    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task Unrouted_404LineWithoutRouteOrUpstream(string mode)
    {
        using var log = new AccessLogFile();
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        using var root = ContentRoot.WithSettings($$"""
            { "ReverseProxy": {
                "Routes": { "api": { "ClusterId": "c", "Match": { "Path": "/api/{**rest}" } } },
                "Clusters": { "c": { "Destinations": { "d1": { "Address": "{{origin.Url}}" } } } } } }
            """);
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode, log.Setting);
        using var client = Http2Clients.Create();

        using var response = await client.GetAsync($"{proxy.Url}/other");
        var body = await response.Content.ReadAsByteArrayAsync();

        Assert.Equal(404, (int)response.StatusCode);
        var line = Assert.Single(await log.WaitForLinesAsync(1));
        Assert.Matches(AccessLogTests.Combined("GET /other HTTP/2", 404, body.Length, "-", "-", "-", "-", "-"), line);
    }

    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task Json_SameFieldsAsHttp1(string mode)
    {
        using var log = new AccessLogFile();
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, log.Setting, "accessLog.format=json");
        using var client = Http2Clients.Create();

        Assert.Equal("ok", await client.GetStringAsync($"{proxy.Url}/j"));

        using var document = JsonDocument.Parse(Assert.Single(await log.WaitForLinesAsync(1)));
        var root = document.RootElement;
        Assert.Equal("127.0.0.1", root.GetProperty("remote_addr").GetString());
        Assert.Equal("GET /j HTTP/2", root.GetProperty("request").GetString());
        Assert.Equal(200, root.GetProperty("status").GetInt32());
        Assert.Equal(2, root.GetProperty("body_bytes_sent").GetInt64());
        Assert.Equal(JsonValueKind.Null, root.GetProperty("http_referer").ValueKind);
        Assert.Equal("default", root.GetProperty("route").GetString());
        Assert.Equal($"{origin.Url}/", root.GetProperty("destination").GetString());
        Assert.Equal(200, root.GetProperty("upstream_status").GetInt32());
        Assert.True(root.GetProperty("upstream_time").GetDouble() >= 0);
    }
}
