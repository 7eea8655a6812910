using static LLRP.Tests.Routing.RouteTables;

namespace LLRP.Tests.Routing;

/// <summary>Methods, and the asterisk-form of OPTIONS.</summary>
public sealed class RouteTableMethodTests
{
    /// <summary>RFC 9110 §9.1: the method token is case-sensitive.</summary>
    [Theory]
    [InlineData("GET", true)]
    [InlineData("POST", true)]
    [InlineData("get", false)]
    [InlineData("PUT", false)]
    [InlineData("HEAD", false)]
    public void Match_MethodExactAndCaseSensitive_Rfc9110Section9_1(string method, bool matches)
        => Assert.Equal(matches ? "r" : null, Table(Route("r", methods: ["GET", "POST"])).Match(new TestRequest(method, "h", "/")));

    [Fact]
    public void Match_NoMethodsMatchesEveryMethod()
        => Assert.Equal("r", Table(Route("r")).Match(new TestRequest("PATCH", "h", "/")));

    [Theory]
    [InlineData("")]
    [InlineData("G T")]
    [InlineData("GET/1")]
    public void Table_MethodNotAToken_Refused(string method)
    {
        var error = Assert.Throws<ArgumentException>(() => Table(Route("r", methods: [method])));

        Assert.StartsWith($"route 'r': method '{method}' is not a token", error.Message);
    }

    /// <summary>RFC 9112 §3.2.4: <c>OPTIONS *</c> targets the server, so only a route that takes every path takes it.</summary>
    [Fact]
    public void Match_AsteriskFormOnlyByAnyPathRoute_Rfc9112Section3_2_4()
    {
        var options = new TestRequest("OPTIONS", "h", "*");

        Assert.Null(Table(Route("literal", "/a"), Route("param", "/{id}"), Route("root", "/")).Match(options));
        Assert.Equal("all", Table(Route("literal", "/a"), Route("all", "/{**all}")).Match(options));
        Assert.Equal("no-path", Table(Route("param", "/{id}"), Route("no-path", path: null)).Match(options));
        Assert.Equal("", Table(Route("all", "/{**all}")).Capture("*", "all"));
    }
}
