using LLRP.Configuration.Routes;
using static LLRP.Tests.Routing.RouteTables;

namespace LLRP.Tests.Routing;

/// <summary>Which route wins when several match: YARP's precedence (Order, path, methods, hosts, headers, query, declaration).</summary>
public sealed class RoutePrecedenceTests
{
    private static readonly HeaderMatchOptions TenantHeader = new("X-Tenant", ["blue"], HeaderMatchMode.ExactHeader, false);
    private static readonly QueryMatchOptions TenantQuery = new("tenant", ["blue"], QueryMatchMode.Exact, false);

    [Fact]
    public void Match_LowerOrderFirstWhateverTheSpecificity()
    {
        var table = Table(Route("literal", "/api/items", order: 2), Route("catch-all", "/{**rest}", order: 1));

        Assert.Equal("catch-all", table.Match("/api/items"));
    }

    [Theory]
    [InlineData("/api/items", "literal")]
    [InlineData("/api/7", "param")]
    [InlineData("/api/7/x", "catch-all")]
    [InlineData("/other", "root-catch-all")]
    public void Match_LiteralBeforeParameterBeforeCatchAll(string path, string route)
    {
        var table = Table(
            Route("root-catch-all", "/{**rest}"),
            Route("catch-all", "/api/{**rest}"),
            Route("param", "/api/{id}"),
            Route("literal", "/api/items"));

        Assert.Equal(route, table.Match(path));
    }

    [Fact]
    public void Match_ComparedSegmentBySegment()
    {
        var table = Table(Route("param-first", "/{tenant}/items"), Route("literal-first", "/api/{id}"));

        Assert.Equal("literal-first", table.Match("/api/items"));
    }

    [Fact]
    public void Match_ExactPathBeforeCatchAllOfSamePrefix()
    {
        var table = Table(Route("rest", "/api/{**rest}"), Route("deeper", "/api/v1/{**rest}"), Route("exact", "/api"));

        Assert.Equal("exact", table.Match("/api"));
        Assert.Equal("deeper", table.Match("/api/v1/x"));
        Assert.Equal("rest", table.Match("/api/v2/x"));
    }

    [Fact]
    public void Match_MethodsBeforeAnyMethod()
    {
        var table = Table(Route("any"), Route("get", methods: ["GET"]));

        Assert.Equal("get", table.Match("/x"));
        Assert.Equal("any", table.Match(new TestRequest("POST", "h", "/x")));
    }

    [Theory]
    [InlineData("a.example.com:8080", "exact-port")]
    [InlineData("a.example.com", "exact")]
    [InlineData("b.example.com:8080", "wildcard-port")]
    [InlineData("b.example.com", "wildcard")]
    [InlineData("other:8080", "port")]
    [InlineData("other", "any")]
    public void Match_ExactHostBeforeWildcardBeforeAny(string host, string route)
    {
        var table = Table(
            Route("any"),
            Route("port", hosts: ["*:8080"]),
            Route("wildcard", hosts: ["*.example.com"]),
            Route("wildcard-port", hosts: ["*.example.com:8080"]),
            Route("exact", hosts: ["a.example.com"]),
            Route("exact-port", hosts: ["a.example.com:8080"]));

        Assert.Equal(route, table.Match(new TestRequest("GET", host, "/")));
    }

    [Fact]
    public void Match_PathBeforeHost()
    {
        var table = Table(Route("host", "/{**rest}", hosts: ["example.com"]), Route("path", "/api"));

        Assert.Equal("path", table.Match("/api"));
    }

    [Fact]
    public void Match_MoreHeaderConditionsFirst()
    {
        var other = new HeaderMatchOptions("X-Other", [], HeaderMatchMode.Exists, false);
        var table = Table(Route("none"), Route("one", headers: [TenantHeader]), Route("two", headers: [TenantHeader, other]));

        Assert.Equal("two", table.Match("/", ("X-Tenant", "blue"), ("X-Other", "1")));
        Assert.Equal("one", table.Match("/", ("X-Tenant", "blue")));
        Assert.Equal("none", table.Match("/"));
    }

    [Fact]
    public void Match_QueryConditionFirst()
    {
        var table = Table(Route("none"), Route("query", query: [TenantQuery]));

        Assert.Equal("query", table.Match("/?tenant=blue"));
        Assert.Equal("none", table.Match("/?tenant=red"));
    }

    [Fact]
    public void Match_PolicyOrderMethodsHostsHeadersQuery()
    {
        var table = Table(
            Route("query", query: [TenantQuery]),
            Route("header", headers: [TenantHeader]),
            Route("host", hosts: ["example.com"]),
            Route("method", methods: ["GET"]));
        var all = TestRequest.Get("/?tenant=blue", ("X-Tenant", "blue"));

        Assert.Equal("method", table.Match(all));
        Assert.Equal("host", table.Match(new TestRequest("POST", "example.com", "/?tenant=blue", ("X-Tenant", "blue"))));
        Assert.Equal("header", table.Match(new TestRequest("POST", "other", "/?tenant=blue", ("X-Tenant", "blue"))));
        Assert.Equal("query", table.Match(new TestRequest("POST", "other", "/?tenant=blue")));
    }

    [Fact]
    public void Match_EqualRoutesInDeclarationOrder()
    {
        Assert.Equal("first", Table(Route("first", "/{a}"), Route("second", "/{b}")).Match("/x"));
        Assert.Equal("second", Table(Route("second", "/{b}"), Route("first", "/{a}")).Match("/x"));
    }

    [Fact]
    public void Routes_InPrecedenceOrder()
    {
        var table = Table(Route("catch-all"), Route("param", "/{id}"), Route("literal", "/a"), Route("first", order: -1));

        Assert.Equal(["first", "literal", "param", "catch-all"], table.Routes.Select(r => r.Id));
    }
}
