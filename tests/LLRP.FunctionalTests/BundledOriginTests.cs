using LLRP.FunctionalTests.Infrastructure;
using LLRP.Hosting;

namespace LLRP.FunctionalTests;

/// <summary>With no <c>downstream</c>, the proxy starts the bundled origin in-process and forwards to it.</summary>
public sealed class BundledOriginTests
{
    [Fact]
    public async Task NoDownstream_ForwardsToTheBundledOriginOnOriginUrlsAndReportsBothAddresses()
    {
        var originPort = LoopbackPort.Closed();
        var app = ProxyHost.Build(["--urls=http://127.0.0.1:0", $"--origin.urls=http://127.0.0.1:{originPort}"]);
        await using var proxy = await HostedApp.StartAsync(app);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /?s=20 HTTP/1.1\r\nHost: a\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        Assert.Equal(DownstreamBody.PatternText(20), response.BodyText);
        var report = StartupReport.Describe(app);
        Assert.StartsWith($"LLRP listening on http://127.0.0.1:{proxy.Port} (", report, StringComparison.Ordinal);
        Assert.Contains($"downstream=http://127.0.0.1:{originPort}/ (the bundled origin, in-process, listening on http://127.0.0.1:{originPort};", report, StringComparison.Ordinal);
    }
}
