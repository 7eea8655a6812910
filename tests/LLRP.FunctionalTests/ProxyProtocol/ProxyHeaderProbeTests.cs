using System.Net.Sockets;
using System.Text;
using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.FunctionalTests.Tcp;

namespace LLRP.FunctionalTests.ProxyProtocol;

/// <summary>
/// Active health probes of a cluster that sends the PROXY protocol: a destination that demands the header refuses a
/// connection without one, so each probe connection starts with the header of the sender's own connection, as HAProxy's
/// health checks send it (proxy-protocol.txt §2.1 <c>PROXY UNKNOWN</c>, §2.2 the LOCAL command).
/// </summary>
public sealed class ProxyHeaderProbeTests
{
    private const string Probing = "\"HealthCheck\": { \"Active\": { \"Enabled\": true, \"Interval\": \"00:00:01\", \"Timeout\": \"00:00:05\", \"Path\": \"/health\" } }";

    /// <summary>§2.1 and §2.2: the header, then the probe's request on the same connection.</summary>
    [Theory]
    [InlineData("v1", "PROXY UNKNOWN\r\n")]
    [InlineData("v2", "\r\n\r\n\0\r\nQUIT\n\u0020\0\0\0")]
    public async Task HttpProbe_StartsWithTheLocalHeader(string version, string header)
    {
        await using var origin = TcpOrigin.Manual();
        using var root = ContentRoot.WithSettings($$"""
            {
              "ReverseProxy": {
                "Routes": { "r": { "ClusterId": "c", "Match": { "Path": "/{**rest}" } } },
                "Clusters": { "c": { "Destinations": { "d": { "Address": "http://127.0.0.1:{{origin.Port}}/" } }, {{Probing}}, "Metadata": { "Llrp.ProxyProtocol": "{{version}}" } } }
              }
            }
            """);
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, LlrpModes.RawPooled);
        using var probe = await origin.AcceptAsync();

        Assert.Equal(header, await TcpSockets.ReceiveAsync(probe, header.Length));
        var head = new StringBuilder();
        while (!head.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
        {
            head.Append(await TcpSockets.ReceiveAsync(probe, 1));
        }

        Assert.StartsWith("GET /health HTTP/1.1\r\n", head.ToString(), StringComparison.Ordinal);
    }

    /// <summary>A TCP cluster's connect probe sends the LOCAL header (§2.2) and closes.</summary>
    [Fact]
    public async Task TcpProbe_SendsTheLocalHeaderAndCloses()
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync(
            "",
            "\"HealthCheck\": { \"Active\": { \"Enabled\": true, \"Interval\": \"00:00:01\", \"Timeout\": \"00:00:05\" } }, \"Metadata\": { \"Llrp.ProxyProtocol\": \"v2\" }",
            [origin.Address]);
        using var probe = await origin.AcceptAsync();

        Assert.Equal("\r\n\r\n\0\r\nQUIT\n\u0020\0\0\0", await TcpSockets.ReceiveToEndAsync(probe));
    }

    /// <summary>End to end: the destination is LLRP accepting the PROXY protocol; the probe passes it and reaches its origin.</summary>
    [Fact]
    public async Task HttpProbe_ReachesTheOriginBehindADestinationThatDemandsTheHeader()
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var demanding = await TestHosts.StartProxyAsync(origin.Url, LlrpModes.RawPooled, "proxyProtocol.accept=true", "proxyProtocol.trustedNetworks=127.0.0.1");
        using var refusals = new ProxyMeterRecorder(demanding);
        using var root = ContentRoot.WithSettings($$"""
            {
              "ReverseProxy": {
                "Routes": { "r": { "ClusterId": "c", "Match": { "Path": "/{**rest}" } } },
                "Clusters": { "c": { "Destinations": { "d": { "Address": "http://127.0.0.1:{{demanding.Port}}/" } }, {{Probing}}, "Metadata": { "Llrp.ProxyProtocol": "v2" } } }
              }
            }
            """);
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, LlrpModes.RawPooled);

        await Deadline.UntilAsync(() => origin.Requests.Any(request => request.Target == "/health"), "a probe reaching the origin");
        Assert.Equal(0, refusals.Sum("llrp.client.proxy_header_refused"));
        Assert.Equal("127.0.0.1", origin.Requests.First(request => request.Target == "/health").Head.Get("X-Forwarded-For"));
    }
}
