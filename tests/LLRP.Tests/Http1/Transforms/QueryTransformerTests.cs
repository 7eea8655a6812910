using System.Text;
using LLRP.Configuration.Routes;
using LLRP.Http1.Transforms;

namespace LLRP.Tests.Http1.Transforms;

/// <summary>
/// A route's query transforms over a query as received: names compare after percent-decoding (RFC 3986 §2.1, '+' a
/// space as in a form) without regard to ASCII case; Set keeps the parameter's place, Append adds at the end.
/// </summary>
public sealed class QueryTransformerTests
{
    [Theory]
    [InlineData("a=1&b=2&c=3", "?a=1&b=9&c=3")]
    [InlineData("a=1&%62=2&B=3", "?a=1&b=9")]
    [InlineData("a=1", "?a=1&b=9")]
    [InlineData("", "?b=9")]
    public void Apply_Set_ReplacesInPlaceOrAddsAtTheEnd(string query, string expected)
        => Assert.Equal(expected, Apply(query, new QueryTransformOptions(TransformAction.Set, "b", "9")));

    [Theory]
    [InlineData("my+key=1&x=2", "?x=2")]
    [InlineData("my%20KEY=1&x=2&my+key=3", "?x=2")]
    [InlineData("my=1", "?my=1")]
    [InlineData("my+key=1", "")]
    public void Apply_Remove_DropsEveryDecodedMatch(string query, string expected)
        => Assert.Equal(expected, Apply(query, new QueryTransformOptions(TransformAction.Remove, "my key", "")));

    [Fact]
    public void Apply_Append_AddsEncodedAtTheEnd()
        => Assert.Equal("?x=1&add=a%20b", Apply("x=1", new QueryTransformOptions(TransformAction.Append, "add", "a b")));

    private static string Apply(string query, QueryTransformOptions step)
    {
        var steps = new[] { new QueryStep(step.Action, Encoding.UTF8.GetBytes(step.Name), Encoding.ASCII.GetBytes($"{Uri.EscapeDataString(step.Name)}={Uri.EscapeDataString(step.Value)}")) };
        var destination = new byte[query.Length + 64];
        var length = QueryTransformer.Apply(steps, Encoding.ASCII.GetBytes(query), destination);
        return Encoding.ASCII.GetString(destination, 0, length);
    }
}
