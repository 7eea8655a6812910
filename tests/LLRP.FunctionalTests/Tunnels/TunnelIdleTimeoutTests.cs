using System.Diagnostics;
using System.Text;
using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Tunnels;

/// <summary>
/// <c>timeouts.tunnelIdleMs</c> in every mode: it bounds the silence of a tunnel once a <c>101</c> made the connection one
/// (RFC 9110 §15.2.2), never the wait for that <c>101</c>, which <c>timeouts.responseHeadersMs</c> bounds as for any
/// response.
/// </summary>
public sealed class TunnelIdleTimeoutTests
{
    /// <summary>The origin answers the upgrade this many tunnel idle timeouts late, well within the response headers timeout.</summary>
    private const int LateSwitchIdlePeriods = 5;

    /// <summary>The traffic of <see cref="TrafficWithinIdleTimeout_KeepsTunnelOpen_SilenceClosesBothSides"/> crosses the tunnel this many times per idle timeout.</summary>
    private const int ExchangesPerIdlePeriod = 10;

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task SwitchLaterThanTunnelIdleTimeout_101Forwarded_TunnelRelays_ThenIdleTimeoutEndsBothSides(string mode)
    {
        const int idleMs = 200;
        var fromClient = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await Task.Delay(LateSwitchIdlePeriods * idleMs);
            await connection.SendAsync(UpgradeTests.SwitchingProtocols + "late");
            fromClient.SetResult(Encoding.Latin1.GetString(await connection.Reader.ReadExactlyAsync("ping".Length)));
            await UpgradeTests.ReadToEndIgnoringResetAsync(connection);
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, $"timeouts.tunnelIdleMs={idleMs}", "timeouts.responseHeadersMs=60000");
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(UpgradeTests.WebSocketRequest);

        Assert.Equal(101, (await client.ReadResponseAsync()).StatusCode);
        Assert.Equal("late", Encoding.Latin1.GetString(await client.ReadExactlyAsync("late".Length)));
        await client.SendAsync("ping");
        Assert.Equal("ping", await fromClient.Task.WaitAsync(Deadline.Io));
        await client.AssertClosedByPeerAsync();
        await origin.ConnectionsEndedAsync();
        await metrics.WaitForSumAsync("llrp.tunnels", 1);
        await metrics.WaitForSumAsync("llrp.tunnels.active", 0);
        await metrics.WaitForSumAsync("llrp.client.active_connections", 0);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task TrafficWithinIdleTimeout_KeepsTunnelOpen_SilenceClosesBothSides(string mode)
    {
        const int idleMs = 1500;
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync(UpgradeTests.SwitchingProtocols);
            await EchoLinesAsync(connection);
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, $"timeouts.tunnelIdleMs={idleMs}");
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync(UpgradeTests.WebSocketRequest);
        Assert.Equal(101, (await client.ReadResponseAsync()).StatusCode);

        // An exchange every tenth of the idle timeout, for three idle timeouts: the tunnel never falls silent for one.
        var open = Stopwatch.StartNew();
        for (var exchange = 0; open.ElapsedMilliseconds < 3 * idleMs; exchange++)
        {
            var line = $"ping {exchange:D6}\r\n";
            await client.SendAsync(line);
            Assert.Equal(line, Encoding.Latin1.GetString(await client.ReadExactlyAsync(line.Length)));
            await Task.Delay(idleMs / ExchangesPerIdlePeriod);
        }

        await client.AssertClosedByPeerAsync();
        await origin.ConnectionsEndedAsync();
        await metrics.WaitForSumAsync("llrp.tunnels.active", 0);
        await metrics.WaitForSumAsync("llrp.client.active_connections", 0);
    }

    /// <summary>
    /// A destination that neither reads nor sends: the client's bytes fill every buffer on the way, the relay waits on a
    /// write to the destination and nothing moves. The idle timeout ends the tunnel all the same, on both sides: the proxy
    /// is done with it before the destination reads again (in yarp mode, a relay that no read on the client's side
    /// wakes), and the destination then finds its connection ended.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task DestinationNeverReads_IdleTimeoutEndsBothSides(string mode)
    {
        var proxyDone = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync(UpgradeTests.SwitchingProtocols);
            await proxyDone.Task;
            await UpgradeTests.ReadToEndIgnoringResetAsync(connection);
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "timeouts.tunnelIdleMs=200");
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync(UpgradeTests.WebSocketRequest);
        Assert.Equal(101, (await client.ReadResponseAsync()).StatusCode);

        // More than the socket buffers and pipes between the client and the destination hold; the send ends as the proxy closes.
        var flood = SendIgnoringCloseAsync(client, new byte[64 * 1024 * 1024]);
        await client.AssertClosedByPeerAsync();
        await metrics.WaitForSumAsync("llrp.tunnels.active", 0);
        await metrics.WaitForSumAsync("llrp.client.active_connections", 0);
        proxyDone.SetResult();
        await flood;

        await origin.ConnectionsEndedAsync();
    }

    private static async Task SendIgnoringCloseAsync(RawHttpClient client, byte[] bytes)
    {
        try
        {
            await client.SendAsync(bytes);
        }
        catch (Exception e) when (e is IOException or TimeoutException)
        {
            // The proxy closed the connection, or stopped reading it before it closed.
        }
    }

    /// <summary>Sends every line the proxy relays back to it, until the proxy ends the connection (a reset is an end too).</summary>
    private static async Task EchoLinesAsync(OriginConnection connection)
    {
        try
        {
            while (await connection.Reader.ReadLineOrEndAsync() is { } line)
            {
                await connection.SendAsync(line + "\r\n");
            }
        }
        catch (IOException)
        {
            // The proxy reset the connection: the tunnel ended.
        }
    }
}
