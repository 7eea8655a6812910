using LLRP.Http1;

namespace LLRP.Tests.Http1;

/// <summary>RFC 3986 §3.3: the segments <c>.</c> and <c>..</c>, plain or percent-encoded (§2.1, <c>%2E</c>), in the path only.</summary>
public sealed class DotSegmentsTests
{
    [Theory]
    [InlineData("/a/../b")]
    [InlineData("/a/./b")]
    [InlineData("/..")]
    [InlineData("/.")]
    [InlineData("/a/%2e%2E/b")]
    [InlineData("/a/.%2e/b")]
    [InlineData("/a/%2E/b?x")]
    [InlineData("..")]
    public void In_DotSegment_Found(string target) => Assert.True(DotSegments.In(System.Text.Encoding.ASCII.GetBytes(target)));

    [Theory]
    [InlineData("/")]
    [InlineData("/a/b")]
    [InlineData("/a/.../b")]
    [InlineData("/a/.b/c.")]
    [InlineData("/a/%2e%2e%2e/b")]
    [InlineData("/a/%2F../b")]
    [InlineData("/a?x=/../b")]
    [InlineData("/a//b")]
    public void In_NoDotSegment_NotFound(string target) => Assert.False(DotSegments.In(System.Text.Encoding.ASCII.GetBytes(target)));
}
