using LLRP.Configuration.Routes;
using static LLRP.Tests.Routing.RouteTables;

namespace LLRP.Tests.Routing;

/// <summary>Query conditions with YARP's semantics over ASP.NET Core's query parsing (RFC 3986 §3.4, form encoding).</summary>
public sealed class QueryConditionTests
{
    private static bool Matches(QueryMatchMode mode, string[] values, string query, bool caseSensitive = false)
        => Table(Route("r", query: [new QueryMatchOptions("tenant", values, mode, caseSensitive)])).Match("/p" + query) is not null;

    [Theory]
    [InlineData("?tenant=blue", true)]
    [InlineData("?a=1&tenant=BLUE&b=2", true)]
    [InlineData("?TENANT=blue", true)]
    [InlineData("?tenant=blue2", false)]
    [InlineData("?tenants=blue", false)]
    [InlineData("?xtenant=blue", false)]
    [InlineData("", false)]
    [InlineData("?", false)]
    public void Exact_WholeDecodedValue(string query, bool matches)
        => Assert.Equal(matches, Matches(QueryMatchMode.Exact, ["blue"], query));

    /// <summary>RFC 3986 §2.1 percent-encoding in names and values; '+' is a space in a form-encoded query.</summary>
    [Theory]
    [InlineData("?tenant=sky+blue", true)]
    [InlineData("?tenant=sky%20blue", true)]
    [InlineData("?t%65nant=sky%20blu%65", true)]
    [InlineData("?tenant=sky%2Bblue", false)]
    public void Exact_PercentAndPlusDecoded_Rfc3986Section2_1(string query, bool matches)
        => Assert.Equal(matches, Matches(QueryMatchMode.Exact, ["sky blue"], query));

    [Fact]
    public void Exact_CaseSensitiveWhenAsked()
    {
        Assert.True(Matches(QueryMatchMode.Exact, ["Blue"], "?Tenant=Blue", caseSensitive: true));
        Assert.False(Matches(QueryMatchMode.Exact, ["Blue"], "?tenant=blue", caseSensitive: true));
    }

    /// <summary>YARP 2.x: a parameter present twice is compared value by value; any value may match.</summary>
    [Theory]
    [InlineData("?tenant=red&tenant=blue", true)]
    [InlineData("?tenant=red&tenant=green", false)]
    public void Exact_RepeatedParameterAnyValue(string query, bool matches)
        => Assert.Equal(matches, Matches(QueryMatchMode.Exact, ["blue"], query));

    [Theory]
    [InlineData("?tenant=blueberry", true)]
    [InlineData("?tenant=navyblue", false)]
    public void Prefix_DecodedValueStartsWith(string query, bool matches)
        => Assert.Equal(matches, Matches(QueryMatchMode.Prefix, ["blue"], query));

    [Theory]
    [InlineData("?tenant=navyblue", true)]
    [InlineData("?tenant=navy%62lue", true)]
    [InlineData("?tenant=red", false)]
    [InlineData("?other=blue", false)]
    public void Contains_DecodedValueContains(string query, bool matches)
        => Assert.Equal(matches, Matches(QueryMatchMode.Contains, ["blue"], query));

    [Theory]
    [InlineData("?tenant=red", true)]
    [InlineData("", true)]
    [InlineData("?tenant=", true)]
    [InlineData("?tenant", true)]
    [InlineData("?tenant=navyblue", false)]
    [InlineData("?tenant=red&tenant=blue", false)]
    public void NotContains_NoValueContains_AbsentMatches(string query, bool matches)
        => Assert.Equal(matches, Matches(QueryMatchMode.NotContains, ["blue"], query));

    [Theory]
    [InlineData("?tenant=x", true)]
    [InlineData("?tenant=&tenant=", true)]
    [InlineData("?tenant=", false)]
    [InlineData("?tenant", false)]
    [InlineData("?a=tenant", false)]
    public void Exists_PresentAndNotEmpty(string query, bool matches)
        => Assert.Equal(matches, Matches(QueryMatchMode.Exists, [], query));

    [Fact]
    public void Exact_LongQueryDecodedOffTheStack()
    {
        var query = "?pad=" + new string('x', 4000) + "&tenant=blue";

        Assert.True(Matches(QueryMatchMode.Exact, ["blue"], query));
    }

    [Theory]
    [InlineData(QueryMatchMode.Exact, new string[0], "takes one or more values")]
    [InlineData(QueryMatchMode.Exists, new[] { "x" }, "takes no values")]
    public void Table_ValuesNotFittingMode_Refused(QueryMatchMode mode, string[] values, string what)
    {
        var error = Assert.Throws<ArgumentException>(() => Table(Route("r", query: [new QueryMatchOptions("q", values, mode, false)])));

        Assert.StartsWith($"route 'r': query parameter 'q': mode {mode} {what}", error.Message);
    }
}
