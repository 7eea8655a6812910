using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests;

/// <summary>The request line, Host and end-to-end fields of a forwarded request.</summary>
public sealed class RequestForwardingTests
{
    public static TheoryData<string, string> Targets => UpstreamStrategies.Cross(
        "/a%2Fb/../c?x=1&y=%20",
        "/",
        "/?",
        "/a//b/./c",
        "/caf%C3%A9;p=1?q=a+b&r=%2B&s=",
        "/x?a=/b?c");

    public static TheoryData<string, string> Methods => UpstreamStrategies.Cross("GET", "DELETE", "OPTIONS", "PURGE");

    public static TheoryData<string, string, string> AbsoluteForms => UpstreamStrategies.Cross(
        ("http://example.com/p?q", "/p?q"),
        ("http://example.com:8080/a%2Fb?x=%20", "/a%2Fb?x=%20"),
        ("http://example.com", "/"),
        ("http://example.com?q=1", "/?q=1"));

    // RFC 9110 §7.7: a proxy MUST NOT modify the absolute-path and query parts of the target.
    [Theory]
    [MemberData(nameof(Targets))]
    public async Task Forward_TargetKeptByteForByte(string strategy, string target)
    {
        var exchange = await ForwardedExchange.RunAsync($"GET {target} HTTP/1.1\r\nHost: client.test\r\n\r\n", strategy);

        Assert.Equal($"GET {target} HTTP/1.1", exchange.Upstream.Head.StartLine);
    }

    // RFC 9112 §3.1: the method token is forwarded as received (methods are case-sensitive).
    [Theory]
    [MemberData(nameof(Methods))]
    public async Task Forward_MethodKept(string strategy, string method)
    {
        var exchange = await ForwardedExchange.RunAsync($"{method} /m HTTP/1.1\r\nHost: client.test\r\n\r\n", strategy);

        Assert.Equal($"{method} /m HTTP/1.1", exchange.Upstream.Head.StartLine);
    }

    // RFC 9110 §6.2: an intermediary sends its own version; RFC 9112 §3.2: an HTTP/1.1 request carries Host.
    [Theory]
    [MemberData(nameof(UpstreamStrategies.All), MemberType = typeof(UpstreamStrategies))]
    public async Task Forward_Http10RequestSentAsHttp11WithHost(string strategy)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, strategy);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /old HTTP/1.0\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal("ok", response.BodyText);
        var upstream = origin.SingleRequest();
        Assert.Equal("GET /old HTTP/1.1", upstream.Head.StartLine);
        Assert.Equal(origin.Authority, upstream.Head.Get("Host"));
    }

    [Theory]
    [MemberData(nameof(UpstreamStrategies.All), MemberType = typeof(UpstreamStrategies))]
    public async Task Forward_DownstreamPathPrefixPrepended(string strategy)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url + "/base", strategy);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /a?b HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        Assert.Equal("GET /base/a?b HTTP/1.1", origin.SingleRequest().Head.StartLine);
    }

    // RFC 9112 §3.2.2: an absolute-form target is sent on as origin-form; §3.2.1: an empty path becomes "/".
    [Theory]
    [MemberData(nameof(AbsoluteForms))]
    public async Task Forward_AbsoluteFormSentAsOriginForm(string strategy, string absoluteForm, string originForm)
    {
        var exchange = await ForwardedExchange.RunAsync($"GET {absoluteForm} HTTP/1.1\r\nHost: example.com\r\n\r\n", strategy);

        Assert.Equal($"GET {originForm} HTTP/1.1", exchange.Upstream.Head.StartLine);
    }

    // RFC 9110 §7.2: Host names the downstream the proxy connects to.
    [Theory]
    [MemberData(nameof(UpstreamStrategies.All), MemberType = typeof(UpstreamStrategies))]
    public async Task Forward_HostRewrittenToDownstreamAuthority(string strategy)
    {
        var exchange = await ForwardedExchange.RunAsync("GET / HTTP/1.1\r\nHost: client.test:8443\r\n\r\n", strategy);

        Assert.Equal(exchange.OriginAuthority, exchange.Upstream.Head.Get("Host"));
    }

    [Theory]
    [MemberData(nameof(UpstreamStrategies.All), MemberType = typeof(UpstreamStrategies))]
    public async Task Forward_HostPreservedWhenConfigured(string strategy)
    {
        var exchange = await ForwardedExchange.RunAsync("GET / HTTP/1.1\r\nHost: client.test:8443\r\n\r\n", strategy, "preserveHost=true");

        Assert.Equal("client.test:8443", exchange.Upstream.Head.Get("Host"));
    }

    // RFC 9110 §5.3 and §7.6: end-to-end fields reach the origin unchanged and in order.
    [Theory]
    [MemberData(nameof(UpstreamStrategies.All), MemberType = typeof(UpstreamStrategies))]
    public async Task Forward_EndToEndFieldsKeptInOrder(string strategy)
    {
        HttpField[] sent =
        [
            new("X-Custom", "first value"),
            new("Cookie", "a=1; b=2"),
            new("Accept", "text/html, application/json;q=0.9, */*;q=0.8"),
            new("User-Agent", "llrp-tests/1.0 (raw)"),
            new("Authorization", "Bearer abc.def"),
            new("X-Empty", ""),
            new("Accept-Encoding", "gzip, br"),
        ];
        var request = "GET / HTTP/1.1\r\nHost: client.test\r\n" + string.Concat(sent.Select(field => $"{field.Name}: {field.Value}\r\n")) + "\r\n";

        var exchange = await ForwardedExchange.RunAsync(request, strategy);

        var names = sent.Select(field => field.Name).ToHashSet(StringComparer.OrdinalIgnoreCase);
        Assert.Equal(
            sent.Select(field => $"{field.Name.ToLowerInvariant()}: {field.Value}"),
            exchange.Upstream.Head.Fields.Where(field => names.Contains(field.Name)).Select(field => $"{field.Name.ToLowerInvariant()}: {field.Value}"));
    }
}
