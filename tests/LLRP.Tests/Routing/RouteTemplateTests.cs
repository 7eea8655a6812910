using LLRP.Routing;
using static LLRP.Tests.Routing.RouteTables;

namespace LLRP.Tests.Routing;

/// <summary>Path templates: which paths a template matches and what its parameters capture.</summary>
public sealed class RouteTemplateTests
{
    [Theory]
    [InlineData("/api/items", true)]
    [InlineData("/api/items/", true)]
    [InlineData("/API/Items", true)]
    [InlineData("/api", false)]
    [InlineData("/api/items/1", false)]
    [InlineData("/api/itemsx", false)]
    [InlineData("/", false)]
    public void Match_LiteralSegments(string path, bool matches)
        => Assert.Equal(matches ? "r" : null, Table(Route("r", "/api/items")).Match(path));

    [Theory]
    [InlineData("api/items")]
    [InlineData("/api/items/")]
    [InlineData("~/api/items")]
    public void Match_LeadingAndTrailingSlashOptionalInTemplate(string template)
        => Assert.Equal("r", Table(Route("r", template)).Match("/api/items"));

    /// <summary>RFC 3986 §2.1: a percent-encoded octet is the octet; hex digits of either case.</summary>
    [Theory]
    [InlineData("/%61pi/items")]
    [InlineData("/%41PI/it%65ms")]
    [InlineData("/api/%69%74%45%4d%53")]
    public void Match_PercentEncodedLiteral_Rfc3986Section2_1(string path)
        => Assert.Equal("r", Table(Route("r", "/api/items")).Match(path));

    /// <summary>An encoded '/' is data within a segment (RFC 3986 §2.2): it neither splits a segment nor equals a literal '/'.</summary>
    [Fact]
    public void Match_EncodedSlashStaysInSegment_Rfc3986Section2_2()
    {
        var table = Table(Route("two", "/a/b"), Route("one", "/{id}"), Route("encoded", "/x%2Fy"));

        Assert.Equal("one", table.Match("/a%2Fb"));
        Assert.Equal("two", table.Match("/a/b"));
        Assert.Equal("encoded", table.Match("/x%2fY"));
        Assert.Equal("a%2Fb", table.Capture("/a%2Fb", "id"));
    }

    [Fact]
    public void Match_NonAsciiLiteralComparedAsUtf8()
    {
        var table = Table(Route("r", "/café"));

        Assert.Equal("r", table.Match("/caf%C3%A9"));
        Assert.Null(table.Match("/caf%C3%89"));
    }

    [Fact]
    public void Match_MalformedPercentIsLiteral()
    {
        var table = Table(Route("r", "/100%"), Route("other", "/{**rest}"));

        Assert.Equal("r", table.Match("/100%"));
        Assert.Equal("other", table.Match("/100%2"));
    }

    [Theory]
    [InlineData("/items/42", "42")]
    [InlineData("/items/42/", "42")]
    [InlineData("/items/a%20b", "a%20b")]
    public void Match_ParameterCapturesOneSegmentAsReceived(string path, string captured)
        => Assert.Equal(captured, Table(Route("r", "/items/{id}")).Capture(path, "id"));

    [Theory]
    [InlineData("/items")]
    [InlineData("/items/")]
    [InlineData("/items//")]
    [InlineData("/items/42/details")]
    public void Match_ParameterNeedsExactlyOneNonEmptySegment(string path)
        => Assert.Null(Table(Route("r", "/items/{id}")).Match(path));

    [Theory]
    [InlineData("/api", "")]
    [InlineData("/api/", "")]
    [InlineData("/api/x", "x")]
    [InlineData("/api/x/y", "x/y")]
    [InlineData("/api/x/y/", "x/y/")]
    [InlineData("/api/x%2Fy//z", "x%2Fy//z")]
    public void Match_CatchAllCapturesRestPossiblyEmpty(string path, string rest)
    {
        Assert.Equal(rest, Table(Route("r", "/api/{**rest}")).Capture(path, "rest"));
        Assert.Equal(rest, Table(Route("r", "/api/{*rest}")).Capture(path, "rest"));
    }

    [Fact]
    public void Match_CatchAllNeedsItsLeadingSegments()
    {
        var table = Table(Route("r", "/api/{**rest}"));

        Assert.Null(table.Match("/apix"));
        Assert.Null(table.Match("/"));
    }

    [Fact]
    public void Match_RootTemplateMatchesOnlyRoot()
    {
        var table = Table(Route("root", "/"));

        Assert.Equal("root", table.Match("/"));
        Assert.Null(table.Match("/a"));
    }

    /// <summary>RFC 9110 §4.2.3: an empty path is equivalent to "/".</summary>
    [Fact]
    public void Match_EmptyPathIsRoot_Rfc9110Section4_2_3()
    {
        Assert.Equal("root", Table(Route("root", "/")).Match(""));
        Assert.Equal("", Table(Route("all", "/{**rest}")).Capture("", "rest"));
    }

    [Fact]
    public void Match_ManySegmentsAndParameters()
    {
        var table = Table(Route("r", "/{a}/{b}/c/{d}/{**e}"));

        Assert.Equal("1", table.Capture("/1/2/c/4/5/6", "A"));
        Assert.Equal("2", table.Capture("/1/2/c/4/5/6", "b"));
        Assert.Equal("4", table.Capture("/1/2/c/4/5/6", "d"));
        Assert.Equal("5/6", table.Capture("/1/2/c/4/5/6", "e"));
        Assert.Null(table.Match("/1/2/x/4"));
    }

    [Fact]
    public void Match_LongPathBeyondKeptSegments()
    {
        var longPath = string.Concat(Enumerable.Repeat("/s", 100));
        var table = Table(Route("fixed", "/s/s"), Route("rest", "/s/{**rest}"));

        Assert.Equal("rest", table.Match(longPath));
        Assert.Equal(longPath[3..], table.Capture(longPath, "rest"));
    }

    [Fact]
    public void Capture_ByIndexAndName()
    {
        var table = Table(Route("r", "/foo/{id}/{**rest}"));
        var request = TestRequest.Get("/foo/7/a/b");

        Assert.True(table.TryMatch(ref request, out var match));
        Assert.Equal(1, match.Route.Template.IndexOf("rest"));
        Assert.Equal("7", Infrastructure.Text.Of(request.Path[match.Capture(0)]));
        Assert.Equal("a/b", Infrastructure.Text.Of(request.Path[match.Capture(1)]));
        Assert.False(match.TryGetCapture("missing", out _));
        Assert.Throws<ArgumentOutOfRangeException>(() => match.Capture(2));
    }

    /// <summary>The matcher refuses what the reader refuses, in the same words (<see cref="LLRP.Configuration.Routes.RouteTemplateSyntax"/>).</summary>
    [Theory]
    [InlineData("/a/{id:int}", "route constraints such as '{id:int}'")]
    [InlineData("/a/{id=5}", "default values such as '{id=5}'")]
    [InlineData("/a/{id?}", "optional parameters such as '{id?}'")]
    [InlineData("/a/{a}.{b}", "complex segments such as '{a}.{b}'")]
    [InlineData("/a/x{id}", "complex segments such as 'x{id}'")]
    [InlineData("/a/{{id}}", "escaped braces")]
    [InlineData("/a/{**rest}/b", "only as the last segment")]
    [InlineData("/a//b", "empty segments")]
    [InlineData("/a/{}", "('{}' has none)")]
    [InlineData("/{id}/{ID}", "{ID} appears twice")]
    [InlineData("/{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i}", "at most 8 parameters")]
    [InlineData("/a?b", "'?'")]
    public void Table_UnsupportedTemplate_SaysWhat(string template, string what)
    {
        var thrown = Assert.Throws<ArgumentException>(() => Table(Route("api", template)));

        Assert.StartsWith($"route 'api': route template '{template}': expected ", thrown.Message);
        Assert.Contains(what, thrown.Message);
    }

    [Theory]
    [InlineData("/", 0)]
    [InlineData("", 0)]
    [InlineData("/api/{id}/{**catch-all}", 2)]
    [InlineData("{*rest}", 1)]
    public void Table_SupportedTemplate_Compiles(string template, int parameters)
        => Assert.Equal(parameters, Assert.Single(Table(Route("r", template)).Routes).Template.ParameterNames.Length);
}
