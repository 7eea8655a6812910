using LLRP.Configuration.Routes;
using static LLRP.Tests.Routing.RouteTables;

namespace LLRP.Tests.Routing;

/// <summary>Header conditions with YARP's semantics: every line of a field is looked at (RFC 9110 §5.3).</summary>
public sealed class HeaderConditionTests
{
    private static bool Matches(HeaderMatchMode mode, string[] values, params (string, string)[] fields)
        => Matches(new HeaderMatchOptions("X-Tenant", values, mode, IsCaseSensitive: false), fields);

    private static bool Matches(HeaderMatchOptions header, params (string, string)[] fields)
        => Table(Route("r", headers: [header])).Match("/", fields) is not null;

    [Fact]
    public void ExactHeader_WholeValueIgnoringCase()
    {
        Assert.True(Matches(HeaderMatchMode.ExactHeader, ["blue"], ("X-Tenant", "blue")));
        Assert.True(Matches(HeaderMatchMode.ExactHeader, ["blue"], ("x-tenant", "BLUE")));
        Assert.True(Matches(HeaderMatchMode.ExactHeader, ["red", "blue"], ("X-Tenant", "blue")));
        Assert.False(Matches(HeaderMatchMode.ExactHeader, ["blue"], ("X-Tenant", "blue2")));
        Assert.False(Matches(HeaderMatchMode.ExactHeader, ["blue"], ("X-Other", "blue")));
        Assert.False(Matches(HeaderMatchMode.ExactHeader, ["blue"]));
    }

    [Fact]
    public void ExactHeader_CaseSensitiveWhenAsked()
    {
        var header = new HeaderMatchOptions("X-Tenant", ["blue"], HeaderMatchMode.ExactHeader, IsCaseSensitive: true);

        Assert.True(Matches(header, ("X-TENANT", "blue")));
        Assert.False(Matches(header, ("X-Tenant", "Blue")));
    }

    /// <summary>RFC 9110 §5.6.1: a list's members are separated by ',' with optional whitespace around it.</summary>
    [Theory]
    [InlineData("red, blue", true)]
    [InlineData("red ,blue ,green", true)]
    [InlineData("\"blue\"", true)]
    [InlineData("red, \"blue\"", true)]
    [InlineData("\"red, blue\"", false)]
    [InlineData("\"red\", \"x,blue\"", false)]
    [InlineData("red; blue", false)]
    [InlineData("\"blue", false)]
    public void ExactHeader_CommaListMembers_Rfc9110Section5_6_1(string value, bool matches)
        => Assert.Equal(matches, Matches(HeaderMatchMode.ExactHeader, ["blue"], ("X-Tenant", value)));

    /// <summary>RFC 6265 §4.2.1: cookie-pairs are separated by ';'.</summary>
    [Theory]
    [InlineData("a=1; beta=2", true)]
    [InlineData("a=1, beta=2", false)]
    public void HeaderPrefix_CookieSplitAtSemicolon_Rfc6265Section4_2_1(string value, bool matches)
        => Assert.Equal(matches, Matches(new HeaderMatchOptions("Cookie", ["beta="], HeaderMatchMode.HeaderPrefix, false), ("Cookie", value)));

    /// <summary>RFC 9110 §5.3: several lines of a field are one list; a match in any line counts.</summary>
    [Fact]
    public void ExactHeader_AnyLineOfField_Rfc9110Section5_3()
        => Assert.True(Matches(HeaderMatchMode.ExactHeader, ["blue"], ("X-Tenant", "red"), ("Accept", "blue"), ("X-Tenant", "green, blue")));

    [Theory]
    [InlineData("blueberry", true)]
    [InlineData("red, Blueberry", true)]
    [InlineData("\"blue\"", true)]
    [InlineData("navyblue", false)]
    public void HeaderPrefix_MemberStartsWithValue(string value, bool matches)
        => Assert.Equal(matches, Matches(HeaderMatchMode.HeaderPrefix, ["blue"], ("X-Tenant", value)));

    [Theory]
    [InlineData("navyblue", true)]
    [InlineData("NAVYBLUE, red", true)]
    [InlineData("red", false)]
    public void Contains_AnyLineContainsValue(string value, bool matches)
        => Assert.Equal(matches, Matches(HeaderMatchMode.Contains, ["blue"], ("X-Tenant", value)));

    [Fact]
    public void Contains_AbsentFieldDoesNotMatch()
        => Assert.False(Matches(HeaderMatchMode.Contains, ["blue"]));

    [Fact]
    public void NotContains_NoLineContainsValue()
    {
        Assert.True(Matches(HeaderMatchMode.NotContains, ["blue"], ("X-Tenant", "red")));
        Assert.False(Matches(HeaderMatchMode.NotContains, ["blue"], ("X-Tenant", "red"), ("X-Tenant", "navyBLUE")));
        Assert.False(Matches(HeaderMatchMode.NotContains, ["green", "blue"], ("X-Tenant", "blue")));
    }

    /// <summary>YARP 2.1 and later: NotContains matches a request without the field, or with one empty line.</summary>
    [Fact]
    public void NotContains_AbsentOrEmptyFieldMatches()
    {
        Assert.True(Matches(HeaderMatchMode.NotContains, ["blue"]));
        Assert.True(Matches(HeaderMatchMode.NotContains, ["blue"], ("X-Tenant", "")));
    }

    [Fact]
    public void Exists_PresentAndNotEmpty()
    {
        Assert.True(Matches(HeaderMatchMode.Exists, [], ("X-Tenant", "x")));
        Assert.True(Matches(HeaderMatchMode.Exists, [], ("X-Tenant", ""), ("X-Tenant", "")));
        Assert.False(Matches(HeaderMatchMode.Exists, [], ("X-Tenant", "")));
        Assert.False(Matches(HeaderMatchMode.Exists, []));
    }

    [Fact]
    public void NotExists_AbsentOrEmpty()
    {
        Assert.True(Matches(HeaderMatchMode.NotExists, []));
        Assert.True(Matches(HeaderMatchMode.NotExists, [], ("X-Tenant", "")));
        Assert.False(Matches(HeaderMatchMode.NotExists, [], ("X-Tenant", "x")));
    }

    [Fact]
    public void Matches_EveryConditionMustHold()
    {
        var table = Table(Route("r", headers:
        [
            new HeaderMatchOptions("A", ["1"], HeaderMatchMode.ExactHeader, false),
            new HeaderMatchOptions("B", [], HeaderMatchMode.NotExists, false),
        ]));

        Assert.Equal("r", table.Match("/", ("A", "1")));
        Assert.Null(table.Match("/", ("A", "1"), ("B", "x")));
    }

    [Theory]
    [InlineData(HeaderMatchMode.ExactHeader, new string[0], "takes one or more values")]
    [InlineData(HeaderMatchMode.Exists, new[] { "x" }, "takes no values")]
    [InlineData(HeaderMatchMode.NotExists, new[] { "x" }, "takes no values")]
    public void Table_ValuesNotFittingMode_Refused(HeaderMatchMode mode, string[] values, string what)
    {
        var error = Assert.Throws<ArgumentException>(() => Table(Route("r", headers: [new HeaderMatchOptions("X", values, mode, false)])));

        Assert.StartsWith($"route 'r': header 'X': mode {mode} {what}", error.Message);
    }
}
