using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests;

/// <summary>The request line, Host and end-to-end fields of a forwarded request.</summary>
public sealed class RequestForwardingTests
{
    public static TheoryData<string, string> Targets => LlrpModes.Cross(
        "/a%2Fb/../c?x=1&y=%20",
        "/",
        "/?",
        "/a//b/./c",
        "/caf%C3%A9;p=1?q=a+b&r=%2B&s=",
        "/x?a=/b?c");

    public static TheoryData<string, string> Methods => LlrpModes.Cross("GET", "DELETE", "OPTIONS", "PURGE");

    public static TheoryData<string, string, string> AbsoluteForms => LlrpModes.Cross(
        ("http://example.com/p?q", "/p?q"),
        ("http://example.com:8080/a%2Fb?x=%20", "/a%2Fb?x=%20"),
        ("http://example.com", "/"),
        ("http://example.com?q=1", "/?q=1"));

    // RFC 9110 §7.7: a proxy MUST NOT modify the absolute-path and query parts of the target.
    [Theory]
    [MemberData(nameof(Targets))]
    public async Task Forward_TargetKeptByteForByte(string mode, string target)
    {
        var exchange = await ForwardedExchange.RunAsync($"GET {target} HTTP/1.1\r\nHost: client.test\r\n\r\n", mode);

        Assert.Equal($"GET {target} HTTP/1.1", exchange.Upstream.Head.StartLine);
    }

    // RFC 9112 §3.1: the method token is forwarded as received (methods are case-sensitive).
    [Theory]
    [MemberData(nameof(Methods))]
    public async Task Forward_MethodKept(string mode, string method)
    {
        var exchange = await ForwardedExchange.RunAsync($"{method} /m HTTP/1.1\r\nHost: client.test\r\n\r\n", mode);

        Assert.Equal($"{method} /m HTTP/1.1", exchange.Upstream.Head.StartLine);
    }

    // RFC 9110 §6.2: an intermediary sends its own version; RFC 9112 §3.2: an HTTP/1.1 request carries Host.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Forward_Http10RequestSentAsHttp11WithHost(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /old HTTP/1.0\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal("ok", response.BodyText);
        var upstream = origin.SingleRequest();
        Assert.Equal("GET /old HTTP/1.1", upstream.Head.StartLine);
        Assert.Equal(origin.Authority, upstream.Head.Get("Host"));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Forward_DownstreamPathPrefixPrepended(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url + "/base", mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /a?b HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        Assert.Equal("GET /base/a?b HTTP/1.1", origin.SingleRequest().Head.StartLine);
    }

    // RFC 9112 §3.2.2: an absolute-form target is sent on as origin-form; §3.2.1: an empty path becomes "/".
    [Theory]
    [MemberData(nameof(AbsoluteForms))]
    public async Task Forward_AbsoluteFormSentAsOriginForm(string mode, string absoluteForm, string originForm)
    {
        var exchange = await ForwardedExchange.RunAsync($"GET {absoluteForm} HTTP/1.1\r\nHost: example.com\r\n\r\n", mode);

        Assert.Equal($"GET {originForm} HTTP/1.1", exchange.Upstream.Head.StartLine);
    }

    // RFC 9110 §7.2: Host names the downstream the proxy connects to.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Forward_HostRewrittenToDownstreamAuthority(string mode)
    {
        var exchange = await ForwardedExchange.RunAsync("GET / HTTP/1.1\r\nHost: client.test:8443\r\n\r\n", mode);

        Assert.Equal(exchange.OriginAuthority, exchange.Upstream.Head.Get("Host"));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Forward_HostPreservedWhenConfigured(string mode)
    {
        var exchange = await ForwardedExchange.RunAsync("GET / HTTP/1.1\r\nHost: client.test:8443\r\n\r\n", mode, "preserveHost=true");

        Assert.Equal("client.test:8443", exchange.Upstream.Head.Get("Host"));
    }

    // RFC 9110 §5.3 and §7.6: end-to-end fields reach the origin unchanged and in order.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Forward_EndToEndFieldsKeptInOrder(string mode)
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

        var exchange = await ForwardedExchange.RunAsync(request, mode);

        var names = sent.Select(field => field.Name).ToHashSet(StringComparer.OrdinalIgnoreCase);
        Assert.Equal(
            sent.Select(field => $"{field.Name.ToLowerInvariant()}: {field.Value}"),
            exchange.Upstream.Head.Fields.Where(field => names.Contains(field.Name)).Select(field => $"{field.Name.ToLowerInvariant()}: {field.Value}"));
    }
}
