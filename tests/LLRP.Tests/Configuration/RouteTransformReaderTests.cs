using LLRP.Configuration.Routes;

namespace LLRP.Tests.Configuration;

/// <summary>Every transform LLRP supports, as YARP's docs write it, mapped into <see cref="RouteTransformOptions"/>; and the refused ones.</summary>
public sealed class RouteTransformReaderTests
{
    private const string Transforms = "ReverseProxy:Routes:api:Transforms";

    private static RouteTransformOptions Read(string transforms)
        => Assert.Single(ReverseProxyFiles.Routing(ReverseProxyFiles.MinimalWith(Transforms, transforms)).Routes).Transforms;

    [Fact]
    public void Read_PathTransforms_KeepTheirOrder()
    {
        var transforms = Read("""[ { "PathRemovePrefix": "/api" }, { "PathPrefix": "/v1" }, { "PathSet": "/fixed" }, { "PathPattern": "/x/{**rest}" } ]""");

        Assert.Equal(
            [new(PathTransformKind.RemovePrefix, "/api"), new(PathTransformKind.Prefix, "/v1"), new(PathTransformKind.Set, "/fixed"), new PathTransformOptions(PathTransformKind.Pattern, "/x/{**rest}")],
            transforms.Path);
    }

    [Fact]
    public void Read_QueryTransforms_SetAppendRemove()
    {
        var transforms = Read("""[ { "QueryValueParameter": "a", "Set": "1" }, { "QueryValueParameter": "b", "Append": "2" }, { "QueryRemoveParameter": "c" } ]""");

        Assert.Equal([new(TransformAction.Set, "a", "1"), new(TransformAction.Append, "b", "2"), new QueryTransformOptions(TransformAction.Remove, "c", "")], transforms.Query);
    }

    [Fact]
    public void Read_RequestHeaderTransforms_SetAppendRemove()
    {
        var transforms = Read("""[ { "RequestHeader": "X-A", "Set": "1" }, { "RequestHeader": "X-B", "Append": "two words" }, { "RequestHeaderRemove": "Cookie" } ]""");

        Assert.Equal(
            [new(TransformAction.Set, "X-A", "1", ResponseCondition.Always), new(TransformAction.Append, "X-B", "two words", ResponseCondition.Always), new HeaderTransformOptions(TransformAction.Remove, "Cookie", "", ResponseCondition.Always)],
            transforms.RequestHeaders);
    }

    [Fact]
    public void Read_ResponseHeaderTransforms_WhenSuccessUnlessGiven()
    {
        var transforms = Read("""[ { "ResponseHeader": "X-A", "Set": "1" }, { "ResponseHeader": "X-B", "Append": "2", "When": "failure" }, { "ResponseHeaderRemove": "Server", "When": "Always" }, { "ResponseHeaderRemove": "X-Powered-By" } ]""");

        Assert.Equal(
            [
                new(TransformAction.Set, "X-A", "1", ResponseCondition.Success),
                new(TransformAction.Append, "X-B", "2", ResponseCondition.Failure),
                new(TransformAction.Remove, "Server", "", ResponseCondition.Always),
                new HeaderTransformOptions(TransformAction.Remove, "X-Powered-By", "", ResponseCondition.Success),
            ],
            transforms.ResponseHeaders);
    }

    [Theory]
    [InlineData("true", true)]
    [InlineData("False", false)]
    public void Read_RequestHeaderOriginalHost_IsABool(string value, bool expected)
        => Assert.Equal(expected, Read($$"""[ { "RequestHeaderOriginalHost": "{{value}}" } ]""").OriginalHost);

    [Theory]
    [InlineData("true", true)]
    [InlineData("false", false)]
    public void Read_RequestHeadersCopy_IsABool(string value, bool expected)
        => Assert.Equal(expected, Read($$"""[ { "RequestHeadersCopy": "{{value}}" } ]""").CopyRequestHeaders);

    [Theory]
    [InlineData("""{ "X-Forwarded": "Set" }""", "Set Set Set Set X-Forwarded-")]
    [InlineData("""{ "X-Forwarded": "Off" }""", "Off Off Off Off X-Forwarded-")]
    [InlineData("""{ "X-Forwarded": "Set", "For": "Remove", "Proto": "Append", "Prefix": "Off", "HeaderPrefix": "X-Original-" }""", "Remove Append Set Off X-Original-")]
    [InlineData("""{ "X-Forwarded": "append", "Host": "Remove" }""", "Append Append Remove Append X-Forwarded-")]
    public void Read_XForwarded_EachFieldTakesTheDefaultActionUnlessGiven(string transform, string expected)
    {
        var forwarded = Read($"[ {transform} ]").Forwarded!;

        Assert.Equal(expected, $"{forwarded.For} {forwarded.Proto} {forwarded.Host} {forwarded.Prefix} {forwarded.HeaderPrefix}");
    }

    [Theory]
    [InlineData("""{ "PathPrefix": "api" }""", ":0:PathPrefix")]
    [InlineData("""{ "PathSet": "/a?b=1" }""", ":0:PathSet")]
    [InlineData("""{ "PathPattern": "/x/{missing}" }""", ":0:PathPattern")]
    [InlineData("""{ "PathPattern": "/x/{id:int}" }""", ":0:PathPattern")]
    [InlineData("""{ "RequestHeader": "Bad Name", "Set": "1" }""", ":0:RequestHeader")]
    [InlineData("""{ "RequestHeader": "X-A", "Set": "a\r\nInjected: 1" }""", ":0:Set")]
    [InlineData("""{ "ResponseHeader": "X-A", "Append": "nul\u0000" }""", ":0:Append")]
    [InlineData("""{ "ResponseHeader": "X-A", "Set": "1", "When": "Sometimes" }""", ":0:When")]
    [InlineData("""{ "QueryValueParameter": "a", "Set": "1\n" }""", ":0:Set")]
    [InlineData("""{ "RequestHeaderOriginalHost": "yes" }""", ":0:RequestHeaderOriginalHost")]
    [InlineData("""{ "RequestHeadersCopy": "1" }""", ":0:RequestHeadersCopy")]
    [InlineData("""{ "X-Forwarded": "Sometimes" }""", ":0:X-Forwarded")]
    [InlineData("""{ "X-Forwarded": "Set", "For": "Never" }""", ":0:For")]
    [InlineData("""{ "X-Forwarded": "Set", "HeaderPrefix": "X Fwd" }""", ":0:HeaderPrefix")]
    public void Read_BadTransformValue_NamesItsKey(string transform, string key)
        => ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith(Transforms, $"[ {transform} ]"), Transforms + key);

    [Fact]
    public void Read_XForwardedListForm_RefusedWithTheCurrentForm()
    {
        var e = ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith(Transforms, """[ { "X-Forwarded": "proto,host,for,prefix" } ]"""), Transforms + ":0:X-Forwarded");

        Assert.Contains("list form", e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("RequestHeader", "Host")]
    [InlineData("RequestHeader", "content-length")]
    [InlineData("RequestHeader", "Transfer-Encoding")]
    [InlineData("RequestHeaderRemove", "Connection")]
    [InlineData("RequestHeader", "Keep-Alive")]
    [InlineData("RequestHeader", "Upgrade")]
    [InlineData("RequestHeader", "TE")]
    [InlineData("RequestHeader", "Trailer")]
    [InlineData("RequestHeader", "Proxy-Connection")]
    [InlineData("ResponseHeader", "Transfer-Encoding")]
    [InlineData("ResponseHeaderRemove", "Content-Length")]
    public void Read_TransformOfAFieldTheProxyOwns_Refused(string transform, string field)
    {
        var value = transform.EndsWith("Remove", StringComparison.Ordinal) ? "" : """, "Set": "x" """;

        var e = ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith(Transforms, $$"""[ { "{{transform}}": "{{field}}"{{value}} } ]"""), $"{Transforms}:0:{transform}");

        Assert.Contains("does not own", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Read_ResponseHeaderHost_IsNotTheProxys()
        => Assert.Equal("Host", Assert.Single(Read("""[ { "ResponseHeader": "Host", "Set": "x" } ]""").ResponseHeaders).Name);

    [Theory]
    [InlineData("""{ "PathPrefx": "/a" }""", "did you mean PathPrefix?")]
    [InlineData("""{ "Whatever": "x" }""", "a transform LLRP supports")]
    [InlineData("""{ "PathPrefix": "/a", "PathSet": "/b" }""", "one transform per object")]
    [InlineData("""{ "PathPrefix": "/a", "Set": "/b" }""", "'Set' is not one")]
    [InlineData("""{ "RequestHeader": "X-A", "Set": "1", "When": "Always" }""", "'When' is not one")]
    [InlineData("""{ "RequestHeader": "X-A" }""", "exactly one of Set and Append")]
    [InlineData("""{ "RequestHeader": "X-A", "Set": "1", "Append": "2" }""", "exactly one of Set and Append")]
    [InlineData("\"PathPrefix\"", "an object naming one transform")]
    [InlineData("""{ "QueryRouteParameter": "foo", "Append": "remainder" }""", "not supported by LLRP")]
    [InlineData("""{ "HttpMethodChange": "PUT", "Set": "POST" }""", "not supported by LLRP")]
    [InlineData("""{ "RequestHeadersAllowed": "a;b" }""", "not supported by LLRP")]
    [InlineData("""{ "RequestHeaderRouteValue": "X-A", "Set": "id" }""", "not supported by LLRP")]
    [InlineData("""{ "Forwarded": "by,for" }""", "not supported by LLRP")]
    [InlineData("""{ "ClientCert": "X-Client-Cert" }""", "not supported by LLRP")]
    [InlineData("""{ "ResponseHeadersCopy": "false" }""", "not supported by LLRP")]
    [InlineData("""{ "ResponseHeadersAllowed": "a" }""", "not supported by LLRP")]
    [InlineData("""{ "ResponseTrailersCopy": "false" }""", "not supported by LLRP")]
    [InlineData("""{ "ResponseTrailer": "X-A", "Set": "1" }""", "not supported by LLRP")]
    [InlineData("""{ "ResponseTrailerRemove": "X-A" }""", "not supported by LLRP")]
    [InlineData("""{ "ResponseTrailersAllowed": "a" }""", "not supported by LLRP")]
    public void Read_UnknownOrUnsupportedTransform_NamesItsIndex(string transform, string reason)
    {
        var e = ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith(Transforms, $"[ {{ \"PathSet\": \"/ok\" }}, {transform} ]"), Transforms + ":1");

        Assert.Contains(reason, e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("RequestHeaderOriginalHost", "\"true\"")]
    [InlineData("RequestHeadersCopy", "\"false\"")]
    [InlineData("X-Forwarded", "\"Set\"")]
    public void Read_SingleTransformTwice_Refused(string name, string value)
        => ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith(Transforms, $$"""[ { "{{name}}": {{value}} }, { "{{name}}": {{value}} } ]"""), Transforms + ":1");
}
