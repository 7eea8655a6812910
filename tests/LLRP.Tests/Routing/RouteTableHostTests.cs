using static LLRP.Tests.Routing.RouteTables;

namespace LLRP.Tests.Routing;

/// <summary>Hosts as ASP.NET Core's HostMatcherPolicy reads them (RFC 9110 §7.2: the Host field is host[:port]).</summary>
public sealed class RouteTableHostTests
{
    private static string? MatchHost(string[] hosts, string host, int defaultPort = 80)
        => Table(Route("r", hosts: hosts)).Match(new TestRequest("GET", host, "/") { DefaultPort = defaultPort });

    /// <summary>RFC 9110 §4.2.3: the host is case-insensitive.</summary>
    [Theory]
    [InlineData("example.com", true)]
    [InlineData("EXAMPLE.com", true)]
    [InlineData("example.com:8080", true)]
    [InlineData("www.example.com", false)]
    [InlineData("example.org", false)]
    [InlineData("", false)]
    public void Match_ExactHostAnyPort_Rfc9110Section4_2_3(string host, bool matches)
        => Assert.Equal(matches ? "r" : null, MatchHost(["example.com"], host));

    [Theory]
    [InlineData("example.com:8080", 80, true)]
    [InlineData("example.com:80", 80, false)]
    [InlineData("example.com", 80, false)]
    [InlineData("example.com", 8080, true)]
    [InlineData("example.com:", 8080, true)]
    [InlineData("example.com:x", 80, false)]
    public void Match_HostWithPort(string host, int defaultPort, bool matches)
        => Assert.Equal(matches ? "r" : null, MatchHost(["example.com:8080"], host, defaultPort));

    /// <summary>RFC 9110 §4.2.3: a missing or empty port is the scheme's default port.</summary>
    [Fact]
    public void Match_MissingPortIsSchemeDefault_Rfc9110Section4_2_3()
    {
        Assert.Equal("r", MatchHost(["example.com:443"], "example.com", 443));
        Assert.Null(MatchHost(["example.com:443"], "example.com", 80));
        Assert.Equal("r", MatchHost(["example.com:443"], "example.com:", 443));
    }

    [Theory]
    [InlineData("a.example.com", true)]
    [InlineData("a.b.example.com", true)]
    [InlineData("A.EXAMPLE.COM:9000", true)]
    [InlineData("example.com", false)]
    [InlineData(".example.com", false)]
    [InlineData("a..example.com", false)]
    [InlineData("aexample.com", false)]
    public void Match_WildcardHostOneOrMoreLabels(string host, bool matches)
        => Assert.Equal(matches ? "r" : null, MatchHost(["*.example.com"], host));

    [Theory]
    [InlineData("*:8080", "anything:8080", true)]
    [InlineData("*:8080", "anything:8081", false)]
    [InlineData("*:8080", "", false)]
    [InlineData("*:80", "", true)]
    [InlineData("*", "", true)]
    [InlineData("example.com:*", "example.com:1", true)]
    [InlineData("*.example.com:8080", "a.example.com:8080", true)]
    [InlineData("*.example.com:8080", "a.example.com", false)]
    public void Match_PortAndAnyHostWildcards(string pattern, string host, bool matches)
        => Assert.Equal(matches ? "r" : null, MatchHost([pattern], host));

    [Fact]
    public void Match_IpLiteralHost()
    {
        Assert.Equal("r", MatchHost(["[::1]"], "[::1]:8080"));
        Assert.Equal("r", MatchHost(["127.0.0.1"], "127.0.0.1:5000"));
    }

    [Fact]
    public void Match_AnyOfSeveralHosts()
    {
        var table = Table(Route("r", hosts: ["a.com", "*.b.com"]));

        Assert.Equal("r", table.Match(new TestRequest("GET", "a.com", "/")));
        Assert.Equal("r", table.Match(new TestRequest("GET", "x.b.com", "/")));
        Assert.Null(table.Match(new TestRequest("GET", "c.com", "/")));
    }

    [Fact]
    public void Match_NoHostsMatchesEveryHostIncludingNone()
    {
        var table = Table(Route("r"));

        Assert.Equal("r", table.Match(new TestRequest("GET", "", "/")));
        Assert.Equal("r", table.Match(new TestRequest("GET", "whatever:1", "/")));
    }

    [Theory]
    [InlineData(":8080")]
    [InlineData("a:b:c")]
    [InlineData("example.com:70000")]
    [InlineData("example.com:port")]
    public void Table_InvalidHost_Refused(string host)
    {
        var error = Assert.Throws<ArgumentException>(() => Table(Route("r", hosts: [host])));

        Assert.StartsWith($"route 'r': host '{host}'", error.Message);
    }
}
