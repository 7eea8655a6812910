using System.Buffers;
using LLRP.Configuration.Routes;
using LLRP.Http1;
using LLRP.Routing;
using LLRP.Tests.Infrastructure;
using static LLRP.Tests.Routing.RouteTables;

namespace LLRP.Tests.Routing;

/// <summary>The indexes by exact host and first segment find the same route a walk of every route would, without allocating.</summary>
public sealed class RouteTableIndexTests
{
    private static RouteTable<string> ThousandRoutes()
    {
        var routes = new List<RouteOptions>();
        for (var i = 0; i < 1000; i++)
        {
            routes.Add(i % 10 == 0
                ? Route($"host-{i}", $"/svc{i}/{{**rest}}", hosts: [$"h{i}.example.com"])
                : Route($"route-{i}", $"/svc{i}/{{id}}"));
        }

        routes.Add(Route("wildcard", "/svc5/{id}", hosts: ["*.example.com"]));
        routes.Add(Route("fallback"));
        return Table([.. routes]);
    }

    [Theory]
    [InlineData("h10.example.com", "/svc10/a/b", "host-10")]
    [InlineData("H10.EXAMPLE.COM:8080", "/SVC10", "host-10")]
    [InlineData("other", "/svc10/a", "fallback")]
    [InlineData("other", "/svc999/x", "route-999")]
    [InlineData("other", "/svc%39%39%39/x", "route-999")]
    [InlineData("x.example.com", "/svc5/1", "wildcard")]
    [InlineData("other", "/svc5/1", "route-5")]
    [InlineData("other", "/nothing", "fallback")]
    [InlineData("other", "/", "fallback")]
    [InlineData("other", "*", "fallback")]
    public void Match_AmongThousandRoutes(string host, string path, string route)
        => Assert.Equal(route, ThousandRoutes().Match(new TestRequest(path == "*" ? "OPTIONS" : "GET", host, path)));

    [Fact]
    public void Match_SameRouteForExactHostInAnyCase()
    {
        var table = Table(Route("a", "/x", hosts: ["A.example.com", "a.EXAMPLE.com:81"]), Route("b", "/x", hosts: ["b.example.com"]));

        Assert.Equal("a", table.Match(new TestRequest("GET", "a.example.com:81", "/x")));
        Assert.Equal("b", table.Match(new TestRequest("GET", "B.example.com", "/x")));
        Assert.Null(table.Match(new TestRequest("GET", "c.example.com", "/x")));
    }

    [Fact]
    public void Match_LongFirstSegmentLiteral()
    {
        var segment = new string('s', 300);
        var table = Table(Route("long", "/" + segment), Route("short", "/s"));

        Assert.Equal("long", table.Match("/" + segment.ToUpperInvariant()));
        Assert.Null(table.Match("/" + segment + "s"));
    }

    /// <summary>Random tables and requests: the indexed lookup picks the first route, in precedence order, that matches.</summary>
    [Fact]
    public void Match_SameAsWalkOfEveryRoute()
    {
        string[] templates = ["/a", "/a/{id}", "/A/b", "/{x}", "/{x}/b", "/a/{**r}", "/{**r}", "/", "/b/{id}/c", "/%62"];
        string[] hosts = ["a.com", "A.com:81", "*.a.com", "*:81", "b.com"];
        string[] paths = ["/a", "/a/", "/A/B", "/a/1", "/b", "/b/1/c", "/", "/x/b", "/a/1/2", "*", "/%61/b"];
        string[] authorities = ["a.com", "a.com:81", "x.a.com", "b.com:81", "c.com", ""];
        var random = new Random(7);
        for (var round = 0; round < 200; round++)
        {
            var routes = Enumerable.Range(0, random.Next(1, 12)).Select(i => Route(
                $"r{i}",
                templates[random.Next(templates.Length)],
                order: random.Next(2),
                hosts: [.. Enumerable.Range(0, random.Next(3)).Select(_ => hosts[random.Next(hosts.Length)])],
                methods: random.Next(3) == 0 ? ["GET"] : null)).ToArray();
            var table = Table(routes);
            foreach (var path in paths)
            {
                var request = new TestRequest(random.Next(2) == 0 ? "GET" : "POST", authorities[random.Next(authorities.Length)], path);
                Assert.Equal(WalkEveryRoute(table, request), table.Match(request));
            }
        }
    }

    private static string? WalkEveryRoute(RouteTable<string> table, TestRequest request)
    {
        var path = new RequestPath(request.Path, stackalloc Range[RequestPath.Capacity]);
        var authority = new RequestAuthority(request.Host, request.DefaultPort);
        var captures = default(PathCaptures);
        foreach (var route in table.Routes)
        {
            if (route.Conditions.Matches(request, path, authority, ref captures))
            {
                return route.Id;
            }
        }

        return null;
    }

    [Fact]
    public void TryMatch_AllocatesNothing()
    {
        var table = ThousandRoutes();
        var hit = new TestRequest("GET", "h990.example.com", "/svc990/a/b?x=1", ("Accept", "*/*"));
        var miss = new TestRequest("GET", "other", "/nothing/here");
        table.TryMatch(ref hit, out _);
        table.TryMatch(ref miss, out _);

        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 100; i++)
        {
            table.TryMatch(ref hit, out _);
            table.TryMatch(ref miss, out _);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    [Fact]
    public void Http1RoutableRequest_ReadsParsedHead()
    {
        var head = new RequestHead();
        Assert.True(RequestHeadParser.TryParse(
            new ReadOnlySequence<byte>(Text.Bytes("GET /api/7?tenant=blue HTTP/1.1\r\nHost: example.com:8080\r\nX-Tenant: blue\r\n\r\n")),
            head,
            new RequestLimits(8192, 32768, 100),
            out _));
        var request = new Http1RoutableRequest(head, 80);

        Assert.Equal("GET", Text.Of(request.Method));
        Assert.Equal("example.com:8080", Text.Of(request.Host));
        Assert.Equal("/api/7", Text.Of(request.Path));
        Assert.Equal("tenant=blue", Text.Of(request.Query));
        Assert.Equal(2, request.FieldCount);
        Assert.Equal("X-Tenant", Text.Of(request.FieldName(1)));
        Assert.Equal("blue", Text.Of(request.FieldValue(1)));
    }

    /// <summary>RFC 9112 §3.2.4: the asterisk-form's path is "*", taken only by a route for every path.</summary>
    [Fact]
    public void Http1RoutableRequest_AsteriskForm_Rfc9112Section3_2_4()
    {
        var head = new RequestHead();
        Assert.True(RequestHeadParser.TryParse(
            new ReadOnlySequence<byte>(Text.Bytes("OPTIONS * HTTP/1.1\r\nHost: example.com\r\n\r\n")),
            head,
            new RequestLimits(8192, 32768, 100),
            out _));
        var request = new Http1RoutableRequest(head, 80);

        Assert.Equal("*", Text.Of(request.Path));
        Assert.True(Table(Route("param", "/{id}"), Route("all")).TryMatch(ref request, out var match));
        Assert.Equal("all", match.Value);
    }

    /// <summary>RFC 9112 §3.2.2: an absolute-form target's authority is the host routed on; its path and query are split as for origin-form.</summary>
    [Fact]
    public void Http1RoutableRequest_AbsoluteFormAuthority_Rfc9112Section3_2_2()
    {
        var head = new RequestHead();
        Assert.True(RequestHeadParser.TryParse(
            new ReadOnlySequence<byte>(Text.Bytes("GET http://api.example.com/v1/x HTTP/1.1\r\nHost: other\r\n\r\n")),
            head,
            new RequestLimits(8192, 32768, 100),
            out _));
        var request = new Http1RoutableRequest(head, 80);
        var table = Table(Route("api", "/v1/{**rest}", hosts: ["api.example.com"]));

        Assert.Equal("api.example.com", Text.Of(request.Host));
        Assert.Equal("/v1/x", Text.Of(request.Path));
        Assert.True(request.Query.IsEmpty);
        Assert.True(table.TryMatch(ref request, out var match));
        Assert.Equal("x", Text.Of(request.Path[match.Capture(0)]));
    }
}
