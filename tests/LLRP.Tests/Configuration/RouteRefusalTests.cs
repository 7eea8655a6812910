namespace LLRP.Tests.Configuration;

/// <summary>Routes LLRP refuses at start-up: each refusal names the full key path, and says what is allowed.</summary>
public sealed class RouteRefusalTests
{
    private const string Route = "ReverseProxy:Routes:api";

    [Theory]
    [InlineData("ReverseProxy:Routs", "{}", "did you mean Routes?")]
    [InlineData(Route + ":ClusterID2", "\"backend\"", "did you mean ClusterId?")]
    [InlineData(Route + ":Match:Paths", "\"/a\"", "did you mean Path?")]
    [InlineData(Route + ":Match:Headers:0:Nme", "\"X-A\"", "did you mean Name?")]
    [InlineData(Route + ":Match:QueryParameters:0:Valuez", "[ \"a\" ]", "did you mean Values?")]
    [InlineData(Route + ":Something", "1", "unknown key")]
    public void Read_UnknownKey_NamesItAndTheNearestKnownKey(string key, string value, string hint)
    {
        var e = ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith(key, value), key);

        Assert.Contains(hint, e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("AuthorizationPolicy", "\"Default\"")]
    [InlineData("CorsPolicy", "\"Default\"")]
    [InlineData("RateLimiterPolicy", "\"fixed\"")]
    [InlineData("OutputCachePolicy", "\"short\"")]
    [InlineData("TimeoutPolicy", "\"slow\"")]
    [InlineData("Timeout", "\"00:00:30\"")]
    [InlineData("MaxRequestBodySize", "1000")]
    public void Read_RoutePolicyOfYarp_NotSupported(string key, string value)
    {
        var e = ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:{key}", value), $"{Route}:{key}");

        Assert.Contains("not supported by LLRP", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Read_RouteWithoutClusterId_Refused()
        => ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:ClusterId", null), $"{Route}:ClusterId");

    [Fact]
    public void Read_RouteToAMissingCluster_ListsTheClusters()
    {
        var e = ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:ClusterId", "\"frontend\""), $"{Route}:ClusterId");

        Assert.Contains("backend", e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("{}")]
    [InlineData("""{ "Hosts": [] }""")]
    [InlineData("""{ "Methods": [ "GET" ] }""")]
    public void Read_RouteWithoutPathOrHosts_Refused(string match)
        => ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:Match", match), $"{Route}:Match");

    [Fact]
    public void Read_NoRoutes_Refused()
        => ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith("ReverseProxy:Routes", "\"none\""), "ReverseProxy:Routes");

    [Theory]
    [InlineData("/api/{id:int}", "constraints")]
    [InlineData("/api/{id=1}", "defaults")]
    [InlineData("/api/{id?}", "optional")]
    [InlineData("/api/{a}.{b}", "complex segments")]
    [InlineData("/api/v{version}", "complex segments")]
    [InlineData("/api/{id", "balanced braces")]
    [InlineData("/api/id}", "balanced braces")]
    [InlineData("/api/{{id}}", "escaped braces")]
    [InlineData("/api/{**rest}/more", "only as the last segment")]
    [InlineData("/api/{***rest}", "{*name} or {**name}")]
    [InlineData("/api/{}", "with a name")]
    [InlineData("/api//x", "empty segments")]
    [InlineData("/api/{id}/{ID}", "once")]
    [InlineData("/api?x=1", "'?'")]
    [InlineData("/{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i}", "at most 8 parameters")]
    [InlineData("/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/0/1/2/3/4/5", "at most 31 segments")]
    public void Read_PathTemplateLlrpDoesNotMatch_Refused(string path, string reason)
    {
        var e = ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:Match:Path", $"\"{path}\""), $"{Route}:Match:Path");

        Assert.Contains(reason, e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("/")]
    [InlineData("/api/{id}")]
    [InlineData("api/{*rest}")]
    [InlineData("/a/{x}/b/{**rest}")]
    [InlineData("/api/")]
    [InlineData("~/api/{id}", "/api/{id}")]
    public void Read_PathTemplate_Accepted(string path, string? read = null)
    {
        var route = Assert.Single(ReverseProxyFiles.Routing(ReverseProxyFiles.MinimalWith($"{Route}:Match:Path", $"\"{path}\"")).Routes);

        Assert.Equal(read ?? (path.StartsWith('/') ? path : "/" + path), route.Match.Path);
    }

    [Theory]
    [InlineData("")]
    [InlineData("exa mple.com")]
    [InlineData("example.com:0")]
    [InlineData("example.com:70000")]
    [InlineData("example.*.com")]
    [InlineData("*example.com")]
    [InlineData("[::1")]
    public void Read_BadHost_Refused(string host)
        => ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:Match:Hosts", $"[ \"example.org\", \"{host}\" ]"), $"{Route}:Match:Hosts:1");

    [Theory]
    [InlineData("example.com")]
    [InlineData("*.example.com")]
    [InlineData("*.example.com:8080")]
    [InlineData("*:8080")]
    [InlineData("example.com:*")]
    [InlineData("127.0.0.1:80")]
    [InlineData("[::1]:8443")]
    [InlineData("bücher.example")]
    public void Read_Host_Accepted(string host)
        => Assert.Equal([host], Assert.Single(ReverseProxyFiles.Routing(ReverseProxyFiles.MinimalWith($"{Route}:Match:Hosts", $"[ \"{host}\" ]")).Routes).Match.Hosts);

    [Fact]
    public void Read_HostsNotAnArray_Refused()
        => ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:Match:Hosts", "\"example.com\""), $"{Route}:Match:Hosts");

    [Fact]
    public void Read_MethodNotAToken_Refused()
        => ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:Match:Methods", "[ \"GET\", \"BAD METHOD\" ]"), $"{Route}:Match:Methods");

    [Theory]
    [InlineData("""{ "Name": "X A", "Values": [ "a" ] }""", ":Name")]
    [InlineData("""{ "Values": [ "a" ] }""", ":Name")]
    [InlineData("""{ "Name": "X-A", "Values": [ "a" ], "Mode": "Regex" }""", ":Mode")]
    [InlineData("""{ "Name": "X-A", "Values": [ "a" ], "Mode": "1" }""", ":Mode")]
    [InlineData("""{ "Name": "X-A" }""", ":Values")]
    [InlineData("""{ "Name": "X-A", "Values": [ "a" ], "Mode": "Exists" }""", ":Values")]
    [InlineData("""{ "Name": "X-A", "Values": [ "" ] }""", ":Values:0")]
    [InlineData("""{ "Name": "X-A", "Values": [ "a" ], "IsCaseSensitive": "yes" }""", ":IsCaseSensitive")]
    public void Read_BadHeaderCondition_NamesItsKey(string condition, string key)
        => ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:Match:Headers", $"[ {condition} ]"), $"{Route}:Match:Headers:0{key}");

    [Theory]
    [InlineData("""{ "Values": [ "a" ] }""", ":Name")]
    [InlineData("""{ "Name": "q", "Values": [ "a" ], "Mode": "ExactHeader" }""", ":Mode")]
    [InlineData("""{ "Name": "q", "Mode": "Contains" }""", ":Values")]
    [InlineData("""{ "Name": "q", "Values": [ "a" ], "Mode": "Exists" }""", ":Values")]
    public void Read_BadQueryCondition_NamesItsKey(string condition, string key)
        => ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:Match:QueryParameters", $"[ {condition} ]"), $"{Route}:Match:QueryParameters:0{key}");

    [Theory]
    [InlineData("Order", "\"first\"")]
    [InlineData("Order", "1.5")]
    public void Read_BadOrder_Refused(string key, string value)
        => ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:{key}", value), $"{Route}:{key}");

    [Fact]
    public void Read_RouteMetadata_UserKeysIgnoredLlrpKeysRefused()
    {
        Assert.Single(ReverseProxyFiles.Routing(ReverseProxyFiles.MinimalWith($"{Route}:Metadata", """{ "Owner": "me", "Llrp": "fine" }""")).Routes);

        ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:Metadata", """{ "Llrp.Weight": "2" }"""), $"{Route}:Metadata:Llrp.Weight");
    }

    [Fact]
    public void Read_ValueWhereASectionIsExpected_Refused()
        => ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:Match", "\"/api\""), $"{Route}:Match");

    [Fact]
    public void Read_SectionWhereAValueIsExpected_Refused()
        => ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith($"{Route}:ClusterId", """{ "Id": "backend" }"""), $"{Route}:ClusterId");
}
