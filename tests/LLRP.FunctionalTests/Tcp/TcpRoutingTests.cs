using System.Net.Sockets;
using LLRP.FunctionalTests.AccessLog;
using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Tcp;

/// <summary>
/// A TCP route's connections follow its cluster's rules, as requests do: balancing, another destination after a connect
/// failure, passive and active health, limits; each is counted and logged once; a stop lets relays finish within the
/// shutdown timeout.
/// </summary>
public sealed class TcpRoutingTests
{
    private const string FirstAlphabetical = "\"LoadBalancingPolicy\": \"FirstAlphabetical\"";

    /// <summary>Nothing was sent on a refused connect: the connection goes to the next destination (as HAProxy's redispatch).</summary>
    [Fact]
    public async Task ConnectRefused_RelayedToAnotherDestination()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync("", FirstAlphabetical, [TcpOrigin.DeadAddress(), origin.Address]);
        using var meters = new ProxyMeterRecorder(proxy.App);
        using var client = await proxy.ConnectAsync();

        await TcpSockets.SendAsync(client, "hello");
        Assert.Equal("hello", await TcpSockets.ReceiveAsync(client, 5));

        Assert.Equal(1, meters.Sum("llrp.destination.failures", "destination", "c/d0"));
        Assert.Equal(1, meters.Sum("llrp.retries", "destination", "c/d0"));
    }

    [Fact]
    public async Task DeadDestination_EjectedAfterItsFailures_NotTriedAgain()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync("", FirstAlphabetical + ", \"Metadata\": { \"Llrp.PassiveConsecutiveFailures\": \"1\" }", [TcpOrigin.DeadAddress(), origin.Address]);
        using var meters = new ProxyMeterRecorder(proxy.App);

        for (var i = 0; i < 4; i++)
        {
            using var client = await proxy.ConnectAsync();
            await TcpSockets.SendAsync(client, "x");
            Assert.Equal("x", await TcpSockets.ReceiveAsync(client, 1));
        }

        Assert.Equal(1, meters.Sum("llrp.destination.ejections", "destination", "c/d0"));
        Assert.Equal(1, meters.Sum("llrp.destination.failures", "destination", "c/d0"));
        Assert.Equal(4, origin.Accepted);
    }

    /// <summary>A TCP cluster's active probe is a connect: the dead destination is taken out before any client meets it.</summary>
    [Fact]
    public async Task ActiveHealth_ConnectProbe_TakesTheDeadDestinationOut()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync(
            "",
            FirstAlphabetical + """
                , "HealthCheck": { "Passive": { "Enabled": false }, "Active": { "Enabled": true, "Interval": "00:00:01", "Timeout": "00:00:01" } },
                "Metadata": { "ConsecutiveFailuresHealthPolicy.Threshold": "1", "Llrp.Retries": "0" }
                """,
            [TcpOrigin.DeadAddress(), origin.Address]);
        using var meters = new ProxyMeterRecorder(proxy.App);
        await Deadline.UntilAsync(() => meters.Observe("llrp.destination.healthy", "destination", "c/d0") == 0, "the probe taking c/d0 out");
        Assert.Equal(1, meters.Observe("llrp.destination.healthy", "destination", "c/d1"));

        using var client = await proxy.ConnectAsync();
        await TcpSockets.SendAsync(client, "probe");
        Assert.Equal("probe", await TcpSockets.ReceiveAsync(client, 5));
        Assert.Equal(0, meters.Sum("llrp.destination.failures"));
    }

    [Fact]
    public async Task MaxConnections_OneMoreClosedUnrelayed_ThenAcceptedAgain()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync("\"MaxConnections\": 1", "", [origin.Address]);
        using var meters = new ProxyMeterRecorder(proxy.App);
        var first = await proxy.ConnectAsync();
        await TcpSockets.SendAsync(first, "1");
        Assert.Equal("1", await TcpSockets.ReceiveAsync(first, 1));

        using (var second = await proxy.ConnectAsync())
        {
            Assert.Equal("", await TcpSockets.ReceiveToEndAsync(second));
        }

        Assert.Equal(1, origin.Accepted);
        Assert.Equal(1, meters.Sum("llrp.tcp.refused_connections", "reason", "route_limit"));
        first.Shutdown(SocketShutdown.Send);
        Assert.Equal("", await TcpSockets.ReceiveToEndAsync(first));
        first.Dispose();
        await meters.WaitForSumAsync("llrp.tcp.active_connections", 0);

        using var third = await proxy.ConnectAsync();
        await TcpSockets.SendAsync(third, "3");
        Assert.Equal("3", await TcpSockets.ReceiveAsync(third, 1));
    }

    /// <summary>The cluster's limit per destination (<c>HttpClient:MaxConnectionsPerServer</c>) holds a slot per relayed connection.</summary>
    [Fact]
    public async Task DestinationLimit_OneMoreClosedUnrelayed()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync("", "\"HttpClient\": { \"MaxConnectionsPerServer\": 1 }", [origin.Address]);
        using var meters = new ProxyMeterRecorder(proxy.App);
        using var first = await proxy.ConnectAsync();
        await TcpSockets.SendAsync(first, "1");
        Assert.Equal("1", await TcpSockets.ReceiveAsync(first, 1));

        using var second = await proxy.ConnectAsync();

        Assert.Equal("", await TcpSockets.ReceiveToEndAsync(second));
        Assert.Equal(1, origin.Accepted);
        Assert.Equal(1, meters.Sum("llrp.tcp.refused_connections", "reason", "no_upstream"));
    }

    [Fact]
    public async Task Relayed_CountedAndLoggedOnce_WithBytesEachWayAndHowItEnded()
    {
        await using var origin = TcpOrigin.Manual();
        using var log = new AccessLogFile();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address], log.Setting);
        using var meters = new ProxyMeterRecorder(proxy.App);
        using (var client = await proxy.ConnectAsync())
        {
            using var upstream = await origin.AcceptAsync();
            await TcpSockets.SendAsync(client, "twelve bytes");
            Assert.Equal("twelve bytes", await TcpSockets.ReceiveAsync(upstream, 12));
            await TcpSockets.SendAsync(upstream, "five!");
            upstream.Shutdown(SocketShutdown.Send);
            Assert.Equal("five!", await TcpSockets.ReceiveToEndAsync(client));
            client.Shutdown(SocketShutdown.Send);
            Assert.Equal("", await TcpSockets.ReceiveToEndAsync(upstream));
        }

        var line = Assert.Single(await log.WaitForLinesAsync(1));
        Assert.StartsWith("127.0.0.1 - - [", line, StringComparison.Ordinal);
        Assert.Contains("] \"TCP\" route=t destination=c/d0 bytes_received=12 bytes_sent=5 session_time=", line, StringComparison.Ordinal);
        Assert.EndsWith(" end=closed", line, StringComparison.Ordinal);
        await meters.WaitForSumAsync("llrp.tcp.active_connections", 0);
        Assert.Equal(1, meters.Sum("llrp.tcp.connections", "route", "t"));
        Assert.Equal(12, meters.Sum("llrp.tcp.bytes_received", "route", "t"));
        Assert.Equal(5, meters.Sum("llrp.tcp.bytes_sent", "route", "t"));
    }

    [Fact]
    public async Task Reset_LoggedAsSuch()
    {
        await using var origin = TcpOrigin.Manual();
        using var log = new AccessLogFile();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address], log.Setting);
        using var client = await proxy.ConnectAsync();
        using var upstream = await origin.AcceptAsync();

        // A byte through first: a reset racing the proxy's connect would fail the connect (no_upstream), not the relay.
        await TcpSockets.SendAsync(client, "x");
        Assert.Equal("x", await TcpSockets.ReceiveAsync(upstream, 1));
        TcpSockets.Reset(upstream);

        await TcpSockets.AssertResetAsync(client);

        Assert.EndsWith(" end=upstream_reset", Assert.Single(await log.WaitForLinesAsync(1)), StringComparison.Ordinal);
    }

    /// <summary>A stop closes the listener at once; a relay goes on until its ends close it, within <c>shutdownTimeoutMs</c>.</summary>
    [Fact]
    public async Task Stop_OpenRelayGoesOn_NewConnectionsRefused()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address], "shutdownTimeoutMs=8000");
        using var client = await proxy.ConnectAsync();
        await TcpSockets.SendAsync(client, "before");
        Assert.Equal("before", await TcpSockets.ReceiveAsync(client, 6));

        using var stopLimit = new CancellationTokenSource(Deadline.Io);
        var stopping = proxy.App.StopAsync(stopLimit.Token);
        await Deadline.UntilAsync(async () =>
        {
            try
            {
                using var refused = await TcpSockets.ConnectAsync(proxy.Port);
                return false;
            }
            catch (SocketException e) when (e.SocketErrorCode is SocketError.ConnectionRefused or SocketError.ConnectionReset)
            {
                // Reset: queued by the kernel on a listening socket that closed before accepting it (each relay loop's
                // socket closes in turn).
                return true;
            }
        }, "the listener closing");

        await TcpSockets.SendAsync(client, "during");
        Assert.Equal("during", await TcpSockets.ReceiveAsync(client, 6));
        Assert.False(stopping.IsCompleted, "The proxy stopped with a relay open.");
        client.Shutdown(SocketShutdown.Send);
        Assert.Equal("", await TcpSockets.ReceiveToEndAsync(client));
        await stopping.WaitAsync(Deadline.Io);
    }

    [Fact]
    public async Task Stop_RelayStillOpenAtShutdownTimeout_Aborted()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address], "shutdownTimeoutMs=500");
        using var client = await proxy.ConnectAsync();
        await TcpSockets.SendAsync(client, "open");
        Assert.Equal("open", await TcpSockets.ReceiveAsync(client, 4));

        using var stopLimit = new CancellationTokenSource(Deadline.Io);
        await proxy.App.StopAsync(stopLimit.Token).WaitAsync(Deadline.Io);

        await TcpSockets.AssertEndedAsync(client);
    }
}
