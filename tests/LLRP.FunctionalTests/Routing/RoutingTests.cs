using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Routing;

/// <summary>
/// Routes and clusters from a YARP-shaped <c>ReverseProxy</c> section, in every mode: requests go to the cluster of the
/// route they match (path, host, method, header, query, in YARP's precedence), transforms change the exact bytes on the
/// wire, a request no route takes is answered 404 and the connection goes on, and each cluster keeps its own health.
/// </summary>
public sealed class RoutingTests
{
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ApiPrefix_RemovedAndHeaderSet_OtherHostToOtherCluster_Else404(string mode)
    {
        await using var api = ScriptedOrigin.Respond(_ => Ok("api"));
        await using var other = ScriptedOrigin.Respond(_ => Ok("other"));
        using var root = ContentRoot.WithSettings(RoutingFiles.ApiAndOtherHost(api.Url, other.Url));
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /api/users/7?x=1 HTTP/1.1\r\nHost: front.example\r\nX-Client: c\r\n\r\n");
        var first = await client.ReadResponseAsync();
        Assert.Equal("api", first.BodyText);
        var received = api.SingleRequest();
        Assert.Equal("/users/7?x=1", received.Target);
        Assert.Equal("api", received.Head.Get("X-Route"));
        Assert.Equal("c", received.Head.Get("X-Client"));

        await client.SendAsync("GET /anything HTTP/1.1\r\nHost: other.example\r\n\r\n");
        var second = await client.ReadResponseAsync();
        Assert.Equal("other", second.BodyText);
        Assert.Equal("/anything", other.SingleRequest().Target);

        await client.SendAsync("GET /nowhere HTTP/1.1\r\nHost: front.example\r\n\r\n");
        var third = await client.ReadResponseAsync();
        Assert.Equal(404, third.StatusCode);
        Assert.Null(third.Head.Get("Connection"));

        await client.SendAsync("GET /api/again HTTP/1.1\r\nHost: front.example\r\n\r\n");
        Assert.Equal("api", (await client.ReadResponseAsync()).BodyText);
        Assert.Equal(2, api.Requests.Count);
    }

    /// <summary>
    /// RFC 3986 §5.2.4: where routes depend on the path, one with a dot-segment is refused (the origin would resolve
    /// <c>/x/../api/..</c> to a path another route owns); the connection closes after the 400.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task DotSegment_RefusedWhereRoutesDependOnThePath(string mode)
    {
        await using var api = ScriptedOrigin.Respond(_ => Ok("api"));
        await using var other = ScriptedOrigin.Respond(_ => Ok("other"));
        using var root = ContentRoot.WithSettings(RoutingFiles.ApiAndOtherHost(api.Url, other.Url));
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /api/../other/%2e%2E/secret HTTP/1.1\r\nHost: front.example\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(400, response.StatusCode);
        Assert.Equal("close", response.Head.Get("Connection"));
        await client.AssertClosedByPeerAsync();
        Assert.Empty(api.Requests);
    }

    /// <summary>Pipelined requests of different routes are each answered by their own cluster, in order (RFC 9112 §9.3.2).</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Pipelined_EachRequestToItsRoute_InOrder(string mode)
    {
        await using var api = ScriptedOrigin.Respond(request => Ok("api" + request.Target));
        await using var other = ScriptedOrigin.Respond(request => Ok("other" + request.Target));
        using var root = ContentRoot.WithSettings(RoutingFiles.ApiAndOtherHost(api.Url, other.Url));
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(
            "GET /api/a HTTP/1.1\r\nHost: front.example\r\n\r\n" +
            "GET /b HTTP/1.1\r\nHost: other.example\r\n\r\n" +
            "GET /missing HTTP/1.1\r\nHost: front.example\r\n\r\n" +
            "GET /api/c HTTP/1.1\r\nHost: front.example\r\n\r\n");
        Assert.Equal("api/a", (await client.ReadResponseAsync()).BodyText);
        Assert.Equal("other/b", (await client.ReadResponseAsync()).BodyText);
        Assert.Equal(404, (await client.ReadResponseAsync()).StatusCode);
        Assert.Equal("api/c", (await client.ReadResponseAsync()).BodyText);
    }

    /// <summary>Order first, then specificity: a literal path beats a parameter, a method or header condition beats none.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Precedence_OrderThenSpecificity(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(request => Ok(request.Head.Get("X-Route") ?? "-"));
        using var root = ContentRoot.WithSettings(RoutingFiles.Precedence(origin.Url));
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);

        Assert.Equal("literal", await RouteOfAsync(proxy, "GET /items/special HTTP/1.1\r\nHost: h\r\n\r\n"));
        Assert.Equal("param", await RouteOfAsync(proxy, "GET /items/42 HTTP/1.1\r\nHost: h\r\n\r\n"));
        Assert.Equal("post", await RouteOfAsync(proxy, "POST /items/42 HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n"));
        Assert.Equal("header", await RouteOfAsync(proxy, "GET /other HTTP/1.1\r\nHost: h\r\nX-Version: beta\r\n\r\n"));
        Assert.Equal("query", await RouteOfAsync(proxy, "GET /other?debug=on HTTP/1.1\r\nHost: h\r\n\r\n"));
        Assert.Equal("first", await RouteOfAsync(proxy, "GET /first/x HTTP/1.1\r\nHost: h\r\n\r\n"));
        Assert.Equal("catch-all", await RouteOfAsync(proxy, "GET /other HTTP/1.1\r\nHost: h\r\n\r\n"));
    }

    /// <summary>Each transform's exact bytes on the wire: path, query, request and response headers, X-Forwarded, original Host.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Transforms_ExactBytesOnTheWire(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(_ => "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nServer: origin\r\nX-Drop: 1\r\n\r\nok");
        using var root = ContentRoot.WithSettings(RoutingFiles.Transforms(origin.Url));
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /v1/orders/9/lines?keep=1&drop=2&set=old HTTP/1.1\r\nHost: shop.example\r\nX-Remove-Me: x\r\nX-Forwarded-For: 10.0.0.1\r\nX-Append: a\r\n\r\n");
        var response = await client.ReadResponseAsync();
        var request = origin.SingleRequest();
        Assert.Equal("/api/orders/9/lines?keep=1&set=new&add=a%20b", request.Target);
        Assert.Null(request.Head.Get("X-Remove-Me"));
        // RFC 9110 §5.3: the lines of a field are one comma-separated list; HttpClient sends them on one line.
        Assert.Equal("a, b", string.Join(", ", request.Head.GetAll("X-Append")));
        Assert.Equal("shop.example", request.Head.Get("Host"));
        Assert.Equal("127.0.0.1", request.Head.Get("X-Forwarded-For"));
        Assert.Null(request.Head.Get("X-Forwarded-Proto"));
        Assert.Equal("ok", response.BodyText);
        Assert.Equal("llrp", response.Head.Get("X-Proxy"));
        Assert.Null(response.Head.Get("X-Drop"));
        Assert.Equal("origin", response.Head.Get("Server"));
    }

    /// <summary>One cluster's dead destination is ejected in its cluster only: the other cluster's requests never fail.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task DeadDestination_OtherClusterUntouched(string mode)
    {
        await using var live = ScriptedOrigin.Respond(_ => Ok("live"));
        var dead = $"http://127.0.0.1:{LoopbackPort.Closed()}";
        using var root = ContentRoot.WithSettings(RoutingFiles.TwoClusters(dead, live.Url));
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);
        for (var i = 0; i < 6; i++)
        {
            var failed = await proxy.GetOnNewConnectionAsync($"/dead/{i}");
            Assert.True(failed.StatusCode == 502, $"Expected 502 from the dead cluster, got:\n{failed}");
            var served = await proxy.GetOnNewConnectionAsync($"/live/{i}");
            Assert.True(served.StatusCode == 200 && served.BodyText == "live", $"The live cluster failed:\n{served}");
        }
    }

    /// <summary>A rewritten file moves a route to another cluster; an open connection's next request follows it.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Reload_RouteMovesToOtherCluster(string mode)
    {
        await using var api = ScriptedOrigin.Respond(_ => Ok("api"));
        await using var other = ScriptedOrigin.Respond(_ => Ok("other"));
        using var root = ContentRoot.WithSettings(RoutingFiles.ApiAndOtherHost(api.Url, other.Url));
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync("GET /api/x HTTP/1.1\r\nHost: front.example\r\n\r\n");
        Assert.Equal("api", (await client.ReadResponseAsync()).BodyText);

        root.WriteSettings(RoutingFiles.ApiAndOtherHost(other.Url, api.Url));
        await Deadline.UntilAsync(async () => (await proxy.GetOnNewConnectionAsync("/api/poll")).BodyText == "other", "The reloaded route taken");
        await client.SendAsync("GET /api/y HTTP/1.1\r\nHost: front.example\r\n\r\n");
        Assert.Equal("other", (await client.ReadResponseAsync()).BodyText);
    }

    /// <summary>
    /// Session affinity by cookie: the first response binds the client (RFC 6265 §4.1 <c>Set-Cookie</c>), its next requests
    /// on new connections go to the same destination; once that destination is ejected they go to the other, bound anew.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Affinity_StickyByCookie_FailsOverWhenEjected(string mode)
    {
        await using var first = DestinationOrigin.Start("A");
        await using var second = DestinationOrigin.Start("B");
        using var root = ContentRoot.WithSettings(RoutingFiles.Affinity(first.Url, second.Url));
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);

        var bound = await GetAsync(proxy, cookie: null);
        var setCookie = bound.Head.Get("Set-Cookie");
        Assert.NotNull(setCookie);
        Assert.StartsWith(".Llrp.Test=", setCookie, StringComparison.Ordinal);
        var cookie = setCookie.Split(';')[0];
        for (var i = 0; i < 6; i++)
        {
            var again = await GetAsync(proxy, cookie);
            Assert.Equal(bound.BodyText, again.BodyText);
            Assert.Null(again.Head.Get("Set-Cookie"));
        }

        var otherName = bound.BodyText == "A" ? "B" : "A";
        await (bound.BodyText == "A" ? first : second).StopAsync();

        var moved = await GetAsync(proxy, cookie);
        Assert.True(moved.StatusCode == 200 && moved.BodyText == otherName, $"Expected the other destination after the bound one went down:\n{moved}");
        var rebound = moved.Head.Get("Set-Cookie");
        Assert.NotNull(rebound);
        Assert.NotEqual(cookie, rebound.Split(';')[0]);
        Assert.Equal(otherName, (await GetAsync(proxy, rebound.Split(';')[0])).BodyText);
    }

    private static async Task<RawHttpResponse> GetAsync(HostedApp proxy, string? cookie)
    {
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync($"GET /s HTTP/1.1\r\nHost: h\r\n{(cookie is null ? "" : $"Cookie: {cookie}\r\n")}Connection: close\r\n\r\n");
        return await client.ReadResponseAsync();
    }

    private static async Task<string> RouteOfAsync(HostedApp proxy, string request)
    {
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync(request);
        var response = await client.ReadResponseAsync(request.StartsWith("HEAD", StringComparison.Ordinal) ? "HEAD" : "GET");
        Assert.True(response.StatusCode == 200, $"Expected 200 for\n{request}got:\n{response}");
        return response.BodyText;
    }

    private static string Ok(string body) => $"HTTP/1.1 200 OK\r\nContent-Length: {body.Length}\r\n\r\n{body}";
}
