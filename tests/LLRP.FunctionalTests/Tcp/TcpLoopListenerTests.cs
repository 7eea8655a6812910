using System.Net.Sockets;
using LLRP.FunctionalTests.AccessLog;
using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Tcp.Loop;
using LLRP.Transport;
using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.FunctionalTests.Tcp;

/// <summary>
/// The spliced TCP route's connections live on the relay loops from their acceptance on: each loop accepts on a listening
/// socket of its own (<c>SO_REUSEPORT</c>), the route's limit holds over all loops, a PROXY protocol header arriving in
/// pieces is read whole on the loop, and a stop while connections keep arriving completes.
/// </summary>
public sealed class TcpLoopListenerTests
{
    /// <summary>
    /// The kernel spreads a port's connections over its <c>SO_REUSEPORT</c> sockets by a hash of their addresses and ports:
    /// 32 connections from as many client ports land on every loop (all on one of two loops: a chance of 2 in 2^32).
    /// </summary>
    [Fact]
    public async Task Connections_SpreadOverEveryRelayLoop()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address]);
        var loops = proxy.App.Services.GetRequiredService<RelayLoops>();
        var clients = new List<Socket>();
        try
        {
            for (var i = 0; i < 32; i++)
            {
                var client = await proxy.ConnectAsync();
                clients.Add(client);
                await TcpSockets.SendAsync(client, "x");
                Assert.Equal("x", await TcpSockets.ReceiveAsync(client, 1));
            }

            Assert.Equal(32, loops.All.Sum(loop => loop.Count));
            Assert.All(loops.All, loop => Assert.True(loop.Count > 0, $"Loop {loop.Loop.Id} accepted none of 32 connections."));
        }
        finally
        {
            clients.ForEach(client => client.Dispose());
        }
    }

    /// <summary>
    /// When the system refuses <c>SO_REUSEPORT</c>, one listening socket is registered with every loop and whichever loop
    /// accepts first takes the connection: no socket of the option's can join the port, the connections are carried both
    /// ways, each lives on one loop, and the stop closes the shared socket.
    /// </summary>
    [Fact]
    public async Task SharedListeningSocket_CarriesConnections_StopClosesIt()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync(services => services.GetRequiredService<RelayLoops>().ReusePort = false, "", "", [origin.Address]);
        var loops = proxy.App.Services.GetRequiredService<RelayLoops>();
        Assert.Throws<AddressInUseException>(() => ListeningSocket.Open(proxy.EndPoint, reusePort: true).Dispose());
        var clients = new List<Socket>();
        try
        {
            for (var i = 0; i < 16; i++)
            {
                var client = await proxy.ConnectAsync();
                clients.Add(client);
                await TcpSockets.SendAsync(client, $"c{i:D2}");
                Assert.Equal($"c{i:D2}", await TcpSockets.ReceiveAsync(client, 3));
            }

            Assert.Equal(16, loops.All.Sum(loop => loop.Count));
            clients[0].Shutdown(SocketShutdown.Send);
            Assert.Equal("", await TcpSockets.ReceiveToEndAsync(clients[0]));
        }
        finally
        {
            clients.ForEach(client => client.Dispose());
        }

        using var stopLimit = new CancellationTokenSource(Deadline.Io);
        await proxy.App.StopAsync(stopLimit.Token).WaitAsync(Deadline.Io);
        var refused = await Assert.ThrowsAsync<SocketException>(() => proxy.ConnectAsync());
        Assert.Equal(SocketError.ConnectionRefused, refused.SocketErrorCode);
    }

    /// <summary>The route's <c>MaxConnections</c> counts the connections of every loop together.</summary>
    [Fact]
    public async Task MaxConnections_HoldsOverAllLoops()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync("\"MaxConnections\": 6", "", [origin.Address]);
        using var meters = new ProxyMeterRecorder(proxy.App);
        var clients = new List<Socket>();
        try
        {
            for (var i = 0; i < 6; i++)
            {
                var client = await proxy.ConnectAsync();
                clients.Add(client);
                await TcpSockets.SendAsync(client, "x");
                Assert.Equal("x", await TcpSockets.ReceiveAsync(client, 1));
            }

            for (var i = 0; i < 4; i++)
            {
                using var refused = await proxy.ConnectAsync();
                Assert.Equal("", await TcpSockets.ReceiveToEndAsync(refused));
            }

            Assert.Equal(6, origin.Accepted);
            Assert.Equal(4, meters.Sum("llrp.tcp.refused_connections", "reason", "route_limit"));
        }
        finally
        {
            clients.ForEach(client => client.Dispose());
        }
    }

    /// <summary>
    /// A PROXY protocol v1 header (proxy-protocol.txt section 2.1) sent a byte at a time: each piece is another readiness
    /// of the client's socket, the header is parsed once whole, and only the bytes after it reach the destination.
    /// </summary>
    [Fact]
    public async Task ProxyHeader_InOneBytePieces_ReadWhole_OnlyWhatFollowsRelayed()
    {
        const string Accepting = "\"AcceptProxyProtocol\": true, \"TrustedNetworks\": [ \"127.0.0.0/8\" ], \"ProxyProtocolTimeout\": \"00:00:30\"";
        await using var origin = TcpOrigin.Manual();
        using var log = new AccessLogFile();
        await using var proxy = await TcpProxy.StartAsync(Accepting, "", [origin.Address], log.Setting);
        using (var client = await proxy.ConnectAsync())
        {
            foreach (var piece in "PROXY TCP4 203.0.113.9 198.51.100.1 4000 443\r\n")
            {
                await TcpSockets.SendAsync(client, piece.ToString());
            }

            await TcpSockets.SendAsync(client, "after");
            using var upstream = await origin.AcceptAsync();
            Assert.Equal("after", await TcpSockets.ReceiveAsync(upstream, 5));
            client.Shutdown(SocketShutdown.Send);
            Assert.Equal("", await TcpSockets.ReceiveToEndAsync(upstream));
        }

        Assert.StartsWith("203.0.113.9 - - [", Assert.Single(await log.WaitForLinesAsync(1)), StringComparison.Ordinal);
    }

    /// <summary>
    /// Clients keep connecting while the proxy stops: the stop closes the listening sockets, lets the accepted connections
    /// run out <c>shutdownTimeoutMs</c>, aborts them and completes; every connection accepted ends.
    /// </summary>
    [Fact]
    public async Task Stop_WhileConnectionsArrive_Completes_EveryAcceptedConnectionEnds()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address], "shutdownTimeoutMs=300");
        var clients = new List<Socket>();
        using var arriving = new CancellationTokenSource();
        var connecting = Task.Run(async () =>
        {
            while (!arriving.IsCancellationRequested)
            {
                try
                {
                    var client = await proxy.ConnectAsync();
                    lock (clients)
                    {
                        clients.Add(client);
                    }
                }
                catch (SocketException)
                {
                    // Refused: the listening sockets are closed.
                    return;
                }
            }
        });
        await Deadline.UntilAsync(
            () =>
            {
                lock (clients)
                {
                    return clients.Count >= 16;
                }
            },
            "16 connections");

        using var stopLimit = new CancellationTokenSource(Deadline.Io);
        await proxy.App.StopAsync(stopLimit.Token).WaitAsync(Deadline.Io);
        await arriving.CancelAsync();
        await connecting.WaitAsync(Deadline.Io);

        Socket[] made;
        lock (clients)
        {
            made = [.. clients];
        }

        foreach (var client in made)
        {
            await TcpSockets.AssertEndedAsync(client);
            client.Dispose();
        }
    }

    /// <summary>
    /// A destination whose accept queue is full drops the SYN (Linux, <c>tcp_conn_request</c>), so the connect stays pending
    /// on the loop past <c>shutdownTimeoutMs</c>: the stop aborts it there, the routing that waited for it ends, the client's
    /// connection is closed and the stop completes.
    /// </summary>
    [Fact]
    public async Task Stop_WithAConnectPending_AbortsIt_AndCompletes()
    {
        using var full = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        full.Bind(new System.Net.IPEndPoint(System.Net.IPAddress.Loopback, 0));
        full.Listen(0);
        using var queued = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await queued.ConnectAsync(full.LocalEndPoint!).WaitAsync(Deadline.Io);
        var port = ((System.Net.IPEndPoint)full.LocalEndPoint!).Port;
        using var log = new AccessLogFile();
        await using var proxy = await TcpProxy.StartAsync("\"ConnectTimeout\": \"00:10:00\"", "", [$"tcp://127.0.0.1:{port}"], "shutdownTimeoutMs=300", log.Setting);
        using var meters = new ProxyMeterRecorder(proxy.App);
        using var client = await proxy.ConnectAsync();
        await TcpSockets.SendAsync(client, "waiting");
        await meters.WaitForSumAsync("llrp.tcp.active_connections", 1);

        using var stopLimit = new CancellationTokenSource(Deadline.Io);
        await proxy.App.StopAsync(stopLimit.Token).WaitAsync(Deadline.Io);

        await TcpSockets.AssertEndedAsync(client);
        Assert.EndsWith(" end=aborted", Assert.Single(await log.WaitForLinesAsync(1)), StringComparison.Ordinal);
    }

    /// <summary>
    /// IPv6 on both sides: the loop reads the client's address from <c>accept4</c>'s <c>sockaddr_in6</c> (the access log
    /// shows it) and writes the destination's for <c>connect</c>.
    /// </summary>
    [Fact]
    public async Task IPv6_ClientAndDestination_RelayedAndLogged()
    {
        using var origin = new Socket(AddressFamily.InterNetworkV6, SocketType.Stream, ProtocolType.Tcp);
        origin.Bind(new System.Net.IPEndPoint(System.Net.IPAddress.IPv6Loopback, 0));
        origin.Listen(4);
        var port = ((System.Net.IPEndPoint)origin.LocalEndPoint!).Port;
        using var log = new AccessLogFile();
        await using var proxy = await TcpProxy.StartAsync("\"Listen\": \"[::1]:0\"", "", [$"tcp://[::1]:{port}"], log.Setting);
        using (var client = await TcpSockets.ConnectAsync(proxy.EndPoint))
        {
            await TcpSockets.SendAsync(client, "six!!!");
            using var upstream = await origin.AcceptAsync().WaitAsync(Deadline.Io);
            Assert.Equal("six!!!", await TcpSockets.ReceiveAsync(upstream, 6));
            client.Shutdown(SocketShutdown.Send);
            Assert.Equal("", await TcpSockets.ReceiveToEndAsync(upstream));
        }

        Assert.StartsWith("::1 - - [", Assert.Single(await log.WaitForLinesAsync(1)), StringComparison.Ordinal);
    }
}
