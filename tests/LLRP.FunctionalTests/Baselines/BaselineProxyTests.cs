using LLRP.FunctionalTests.Infrastructure;
using LLRP.Testing;

namespace LLRP.FunctionalTests.Baselines;

/// <summary>Smoke tests of the full ASP.NET Core baselines (HttpClient, and YARP with one catch-all route, one cluster, default transforms) that the benchmarks compare LLRP with.</summary>
public sealed class BaselineProxyTests
{
    [Theory]
    [MemberData(nameof(TestHosts.Baselines), MemberType = typeof(TestHosts))]
    public async Task Get_OriginBodyReturned(string baselineName)
    {
        await using var downstream = await TestHosts.StartDownstreamAsync();
        await using var baseline = await TestHosts.StartBaselineAsync(baselineName, downstream.Url);
        await using var client = await baseline.ConnectAsync();

        await client.SendAsync("GET /?s=1000 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        Assert.Equal(DownstreamBody.PatternText(1000), response.BodyText);
    }

    [Theory]
    [MemberData(nameof(TestHosts.Baselines), MemberType = typeof(TestHosts))]
    public async Task PostToSink_BodyReceivedIntact(string baselineName)
    {
        var body = new byte[1_000_000];
        new Random(1).NextBytes(body);
        await using var downstream = await TestHosts.StartDownstreamAsync();
        await using var baseline = await TestHosts.StartBaselineAsync(baselineName, downstream.Url);
        await using var client = await baseline.ConnectAsync();

        await client.SendAsync($"POST /sink HTTP/1.1\r\nHost: client.test\r\nContent-Length: {body.Length}\r\n\r\n");
        await client.SendAsync(body);
        var response = await client.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        Assert.Equal(DownstreamBody.SinkReport(body), response.BodyText.Trim());
    }

    [Theory]
    [MemberData(nameof(TestHosts.Baselines), MemberType = typeof(TestHosts))]
    public async Task HttpsDownstream_SelfSignedAcceptedOnlyWithDownstreamInsecure(string baselineName)
    {
        using var certificate = TestCertificate.Create();
        await using var downstream = await TestHosts.StartTlsDownstreamAsync(certificate);
        var origin = downstream.Url;
        await using var insecure = await TestHosts.StartBaselineAsync(baselineName, origin, "tls.downstreamInsecure=true");
        await using var strict = await TestHosts.StartBaselineAsync(baselineName, origin);
        await using var insecureClient = await insecure.ConnectAsync();
        await using var strictClient = await strict.ConnectAsync();

        await insecureClient.SendAsync("GET /?s=1000 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var accepted = await insecureClient.ReadResponseAsync();
        await strictClient.SendAsync("GET /?s=1000 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var refused = await strictClient.ReadResponseAsync();

        Assert.Equal(200, accepted.StatusCode);
        Assert.Equal(DownstreamBody.PatternText(1000), accepted.BodyText);
        Assert.Equal(502, refused.StatusCode);
    }

    [Theory]
    [MemberData(nameof(TestHosts.Baselines), MemberType = typeof(TestHosts))]
    public async Task DownstreamDown_502(string baselineName)
    {
        await using var baseline = await TestHosts.StartBaselineAsync(baselineName, $"http://127.0.0.1:{LoopbackPort.Closed()}");
        await using var client = await baseline.ConnectAsync();

        await client.SendAsync("GET / HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(502, response.StatusCode);
    }
}
