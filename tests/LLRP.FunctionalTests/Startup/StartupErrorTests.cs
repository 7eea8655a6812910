using System.Net;
using System.Net.Sockets;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Startup;

/// <summary>
/// Every start-up error ends the proxy process with exit code 2 and one line naming the key and its value, before
/// anything listens: no stack trace, no silent default.
/// </summary>
public sealed class StartupErrorTests
{
    [Theory]
    [InlineData("urls", "http://127.0.0.1:notaport")]
    [InlineData("urls", "http://127.0.0.1:99999")]
    [InlineData("admin.urls", "http://127.0.0.1:notaport")]
    [InlineData("admin.urls", "http://127.0.0.1:99999")]
    [InlineData("origin.urls", "http://127.0.0.1:notaport")]
    [InlineData("origin.urls", "http://127.0.0.1:99999")]
    [InlineData("preserveHost", "yes")]
    public async Task Start_InvalidValue_ExitsTwoWithOneLineNamingTheKey(string key, string value)
    {
        var others = FreeAddresses(key);
        using var root = ContentRoot.Empty();
        await using var proxy = AppProcess.StartProxy(root.Path, [$"--{key}={value}", .. others.Select(other => $"--{other.Key}={other.Url}")]);

        Assert.Equal(2, await proxy.ExitCodeAsync());
        Assert.Equal($"Invalid configuration: '{key}' = '{value}'", Assert.Single(proxy.Lines).Split(". Allowed:")[0]);
        await AssertNothingListensAsync(others);
    }

    /// <summary>.NET's configuration reads the environment's <c>a__b</c> as <c>a:b</c>: LLRP reads it as the dotted key <c>a.b</c>.</summary>
    [Fact]
    public async Task Start_InvalidValueOfDottedKeyInEnvironmentSectionForm_ExitsTwoNamingTheDottedKey()
    {
        using var root = ContentRoot.Empty();
        await using var proxy = AppProcess.StartProxy(root.Path, ["--urls=http://127.0.0.1:0"], ("timeouts__connectMs", "abc"));

        Assert.Equal(2, await proxy.ExitCodeAsync());
        Assert.StartsWith("Invalid configuration: 'timeouts.connectMs' = 'abc'.", Assert.Single(proxy.Lines), StringComparison.Ordinal);
    }

    /// <summary>A <c>ReverseProxy</c> section with an unknown key, an unsupported YARP key or a bad value: one line naming its path.</summary>
    [Theory]
    [InlineData("""{ "ReverseProxy": { "Routes": { "r": { "ClusterId": "c", "Match": { "Path": "/{**x}" }, "Ordr": 1 } }, "Clusters": { "c": { "Destinations": { "d": { "Address": "http://127.0.0.1:1/" } } } } } }""", "ReverseProxy:Routes:r:Ordr")]
    [InlineData("""{ "ReverseProxy": { "Routes": { "r": { "ClusterId": "c", "Match": { "Path": "/{**x}" }, "AuthorizationPolicy": "p" } }, "Clusters": { "c": { "Destinations": { "d": { "Address": "http://127.0.0.1:1/" } } } } } }""", "ReverseProxy:Routes:r:AuthorizationPolicy")]
    [InlineData("""{ "ReverseProxy": { "Routes": { "r": { "ClusterId": "missing", "Match": { "Path": "/{**x}" } } }, "Clusters": { "c": { "Destinations": { "d": { "Address": "http://127.0.0.1:1/" } } } } } }""", "ReverseProxy:Routes:r:ClusterId")]
    [InlineData("""{ "ReverseProxy": { "Routes": { "r": { "ClusterId": "c", "Match": { "Path": "/{id:int}" } } }, "Clusters": { "c": { "Destinations": { "d": { "Address": "http://127.0.0.1:1/" } } } } } }""", "ReverseProxy:Routes:r:Match:Path")]
    [InlineData("""{ "ReverseProxy": { "Routes": { "r": { "ClusterId": "c", "Match": { "Path": "/{**x}" } } }, "Clusters": { "c": { "LoadBalancingPolicy": "Fastest", "Destinations": { "d": { "Address": "http://127.0.0.1:1/" } } } } } }""", "ReverseProxy:Clusters:c:LoadBalancingPolicy")]
    [InlineData("""{ "downstream": "http://127.0.0.1:1", "ReverseProxy": { "Routes": { "r": { "ClusterId": "c", "Match": { "Path": "/{**x}" } } }, "Clusters": { "c": { "Destinations": { "d": { "Address": "http://127.0.0.1:1/" } } } } } }""", "ReverseProxy")]
    public async Task Start_InvalidReverseProxySection_ExitsTwoWithOneLineNamingTheKeyPath(string settings, string key)
    {
        using var root = ContentRoot.Empty();
        root.WriteSettings(settings);
        await using var proxy = AppProcess.StartProxy(root.Path, [$"--urls=http://127.0.0.1:{LoopbackPort.Closed()}"]);

        Assert.Equal(2, await proxy.ExitCodeAsync());
        Assert.StartsWith($"Invalid configuration: '{key}' = ", Assert.Single(proxy.Lines), StringComparison.Ordinal);
    }

    /// <summary>The modes over HttpClient share their connections among clients: an http:// cluster's PROXY protocol header, one client's address, is refused there.</summary>
    [Theory]
    [InlineData("httpclient")]
    [InlineData("httpclient-httpcontext")]
    [InlineData("yarp")]
    public async Task Start_ProxyProtocolOnHttpClusterOverHttpClient_ExitsTwoNamingTheKeyAndRawMode(string mode)
    {
        using var root = ContentRoot.Empty();
        root.WriteSettings("""{ "ReverseProxy": { "Routes": { "r": { "ClusterId": "c", "Match": { "Path": "/{**x}" } } }, "Clusters": { "c": { "Destinations": { "d": { "Address": "http://127.0.0.1:1/" } }, "Metadata": { "Llrp.ProxyProtocol": "v1" } } } } }""");
        await using var proxy = AppProcess.StartProxy(root.Path, [$"--urls=http://127.0.0.1:{LoopbackPort.Closed()}", $"--mode={mode}"]);

        Assert.Equal(2, await proxy.ExitCodeAsync());
        var line = Assert.Single(proxy.Lines);
        Assert.StartsWith("Invalid configuration: 'ReverseProxy:Clusters:c:Metadata:Llrp.ProxyProtocol' = 'v1'", line, StringComparison.Ordinal);
        Assert.Contains("mode=raw sends it", line, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("urls")]
    [InlineData("admin.urls")]
    [InlineData("origin.urls")]
    public async Task Start_AddressInUse_ExitsTwoWithOneLineNamingTheKey(string key)
    {
        using var holder = new TcpListener(IPAddress.Loopback, 0);
        holder.Start();
        var taken = $"http://127.0.0.1:{((IPEndPoint)holder.LocalEndpoint).Port}";
        var others = FreeAddresses(key);
        using var root = ContentRoot.Empty();
        await using var proxy = AppProcess.StartProxy(root.Path, [$"--{key}={taken}", .. others.Select(other => $"--{other.Key}={other.Url}")]);

        Assert.Equal(2, await proxy.ExitCodeAsync());
        var line = Assert.Single(proxy.Lines);
        Assert.StartsWith($"Invalid configuration: '{key}' = '{taken}'. Allowed: an address no other socket listens on", line, StringComparison.Ordinal);
        await AssertNothingListensAsync(others);
    }

    /// <summary>
    /// A TCP route's <c>Listen</c> address held by another socket: the line names the route's key, not <c>urls</c>, with the
    /// relay loops' listeners (<c>tcp.splice</c>) and with Kestrel's sockets transport.
    /// </summary>
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task Start_TcpRouteAddressInUse_ExitsTwoWithOneLineNamingTheRouteKey(bool splice)
    {
        using var holder = new TcpListener(IPAddress.Loopback, 0);
        holder.Start();
        var taken = $"127.0.0.1:{((IPEndPoint)holder.LocalEndpoint).Port}";
        var others = FreeAddresses("");
        using var root = ContentRoot.Empty();
        await using var proxy = AppProcess.StartProxy(
            root.Path,
            [
                .. others.Select(other => $"--{other.Key}={other.Url}"),
                $"--tcp.splice={splice}",
                $"--ReverseProxy:TcpRoutes:relay:Listen={taken}",
                "--ReverseProxy:TcpRoutes:relay:ClusterId=c",
                $"--ReverseProxy:Clusters:c:Destinations:d:Address=tcp://127.0.0.1:{LoopbackPort.Closed()}",
            ]);

        Assert.Equal(2, await proxy.ExitCodeAsync());
        var line = Assert.Single(proxy.Lines);
        Assert.StartsWith($"Invalid configuration: 'ReverseProxy:TcpRoutes:relay:Listen' = '{taken}'. Allowed: an address no other socket listens on", line, StringComparison.Ordinal);
        await AssertNothingListensAsync(others);
    }

    /// <summary>The keys that take listen addresses, each but <paramref name="key"/> with a loopback address nothing listens on.</summary>
    private static (string Key, string Url)[] FreeAddresses(string key)
        => [.. new[] { "urls", "admin.urls", "origin.urls" }.Where(other => other != key).Select(other => (other, $"http://127.0.0.1:{LoopbackPort.Closed()}"))];

    private static async Task AssertNothingListensAsync((string Key, string Url)[] addresses)
    {
        foreach (var (key, url) in addresses)
        {
            using var client = new TcpClient();
            var error = await Assert.ThrowsAsync<SocketException>(() => client.ConnectAsync(IPAddress.Loopback, new Uri(url).Port).WaitAsync(Deadline.Io));
            Assert.True(error.SocketErrorCode == SocketError.ConnectionRefused, $"{key}={url}: {error.SocketErrorCode}");
        }
    }
}
