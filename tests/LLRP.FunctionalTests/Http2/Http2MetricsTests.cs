using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>The HTTP/2 front end's requests in the <c>LLRP</c> meter, told apart by OpenTelemetry's <c>network.protocol.version</c>.</summary>
public sealed class Http2MetricsTests
{
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task Requests_TaggedProtocolVersion2(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var metrics = new ProxyMeterRecorder(proxy);
        using var client = Http2Clients.Create();

        for (var i = 0; i < 3; i++)
        {
            Assert.Equal("ok", await client.GetStringAsync($"{proxy.Url}/"));
        }

        // A request is counted once its stream's exchange has ended, which the client may see a moment before.
        await metrics.WaitForSumAsync("llrp.requests", 3);
        Assert.Equal(3, metrics.Sum("llrp.requests", "network.protocol.version", "2"));
        Assert.Equal(3, metrics.Sum("llrp.requests", "http.response.status_code", 200));
    }

    [Theory]
    [MemberData(nameof(Http2Servers.All), MemberType = typeof(Http2Servers))]
    public async Task Connections_CountedWhileOpen(string server)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await Http2Servers.StartProxyAsync(server, origin.Url);
        using var metrics = new ProxyMeterRecorder(proxy);
        using (var client = Http2Clients.Create())
        {
            Assert.Equal("ok", await client.GetStringAsync($"{proxy.Url}/"));
            Assert.Equal("ok", await client.GetStringAsync($"{proxy.Url}/"));

            // One HTTP/2 connection carried both requests, and is open.
            Assert.Equal(1, metrics.Sum("llrp.client.active_connections"));
        }

        await metrics.WaitForSumAsync("llrp.client.active_connections", 0);
    }
}
