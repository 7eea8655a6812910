using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using LLRP.FunctionalTests.AccessLog;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Tcp;

/// <summary>
/// The spliced relay on its event loops (the TCP routes' default on Linux): every byte each way, in order (RFC 9293 §3.10:
/// a connection delivers a stream), and the connect timeout of a destination that never answers. A reset or a FIN while
/// bytes wait for the other side: <see cref="TcpBackPressureTests"/>.
/// </summary>
public sealed class TcpLoopRelayTests
{
    private const long GiB = 1024L * 1024 * 1024;
    private const int Block = 1024 * 1024;
    private const int Connections = 16;
    private const int Exchanges = 50;

    /// <summary>Long enough for 2 GiB through the proxy and hashed twice on a machine busy with other work; only a hang fails it.</summary>
    private static readonly TimeSpan TransferLimit = TimeSpan.FromMinutes(5);

    [Fact]
    public async Task Transfer_1GiBEachWay_Sha256OfWhatEachEndSentEqualsWhatTheOtherReceived()
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address]);
        using var client = await proxy.ConnectAsync();
        using var upstream = await origin.AcceptAsync();
        using var limit = new CancellationTokenSource(TransferLimit);

        var transfers = await Task.WhenAll(
            SendAsync(client, seed: 1, limit.Token),
            ReceiveAsync(upstream, limit.Token),
            SendAsync(upstream, seed: 2, limit.Token),
            ReceiveAsync(client, limit.Token));

        Assert.Equal(GiB, transfers[1].Bytes);
        Assert.Equal(GiB, transfers[3].Bytes);
        Assert.Equal(transfers[0].Hash, transfers[1].Hash);
        Assert.Equal(transfers[2].Hash, transfers[3].Hash);
    }

    /// <summary>
    /// Connections exchanging small messages at once, as keep-alive clients do: a relay loop holding more than one
    /// connection pauses to gather arrivals after each iteration with work, and every message still reaches its own
    /// connection's other end, whole and in order (RFC 9293 §3.10), and comes back the same way.
    /// </summary>
    [Fact]
    public async Task Exchange_ManyConnectionsAtOnce_EachGetsItsOwnRepliesInOrder()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address]);
        var clients = await Task.WhenAll(Enumerable.Range(0, Connections).Select(_ => proxy.ConnectAsync()));
        try
        {
            await Task.WhenAll(clients.Select(ExchangeAsync));
        }
        finally
        {
            foreach (var client in clients)
            {
                client.Dispose();
            }
        }
    }

    /// <summary>
    /// One exchange per connection, each side's bytes followed at once by its FIN, as a client of one request per
    /// connection and its destination send them: the request and the client's FIN, then the reply and the destination's.
    /// Bytes that arrive with their FIN are sent on corked and leave with the FIN passed on (the reply's with the close of
    /// both, the client's end having come first); every byte still arrives before the end (RFC 9293 §3.6: a close
    /// follows what was sent before it). Sizes from 1 byte to under the relay's 16 KiB receive, which reads them whole.
    /// </summary>
    [Fact]
    public async Task OneExchangePerConnection_BytesThenFinEachWay_EveryByteThenEnd()
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address]);
        for (var i = 0; i < Exchanges; i++)
        {
            var request = new string((char)('a' + (i % 26)), 1 + (i * 300));
            var reply = new string((char)('A' + (i % 26)), 16_000 - (i * 300));
            using var client = await proxy.ConnectAsync();
            using var upstream = await origin.AcceptAsync();

            await TcpSockets.SendAsync(client, request);
            client.Shutdown(SocketShutdown.Send);
            Assert.Equal(request, await TcpSockets.ReceiveToEndAsync(upstream));
            await TcpSockets.SendAsync(upstream, reply);
            upstream.Shutdown(SocketShutdown.Send);
            Assert.Equal(reply, await TcpSockets.ReceiveToEndAsync(client));
        }
    }

    /// <summary>
    /// A relay that has ended goes back to its loop and carries a later connection: after relays ended by a reset from
    /// each side and by both FINs, each next connection still gets every byte each way, then its end, and a reset still
    /// reaches only its own connection's other end.
    /// </summary>
    [Fact]
    public async Task RelaysTakenAgain_AfterEachKindOfEnd_NextConnectionsRelayWhole()
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address]);
        for (var i = 0; i < Exchanges / 5; i++)
        {
            var reset = await proxy.ConnectAsync();
            using (var upstream = await origin.AcceptAsync())
            {
                await TcpSockets.SendAsync(reset, "ping");
                Assert.Equal("ping", await TcpSockets.ReceiveAsync(upstream, 4));
                TcpSockets.Reset(reset);
                await TcpSockets.AssertResetAsync(upstream);
            }

            using var client = await proxy.ConnectAsync();
            var resetUpstream = await origin.AcceptAsync();
            await TcpSockets.SendAsync(resetUpstream, "pong");
            Assert.Equal("pong", await TcpSockets.ReceiveAsync(client, 4));
            TcpSockets.Reset(resetUpstream);
            await TcpSockets.AssertResetAsync(client);

            using var next = await proxy.ConnectAsync();
            using var nextUpstream = await origin.AcceptAsync();
            await TcpSockets.SendAsync(next, $"request {i}");
            next.Shutdown(SocketShutdown.Send);
            Assert.Equal($"request {i}", await TcpSockets.ReceiveToEndAsync(nextUpstream));
            await TcpSockets.SendAsync(nextUpstream, $"reply {i}");
            nextUpstream.Shutdown(SocketShutdown.Send);
            Assert.Equal($"reply {i}", await TcpSockets.ReceiveToEndAsync(next));
        }
    }

    /// <summary>
    /// Nothing of a connection shows on the next one its relay carries once taken again from its loop (a loop takes back
    /// the relay given back last; each loop carries several of these connections, one after the other): connections
    /// alternate between a PROXY protocol header with addresses, whose client half-closes first, and one with
    /// <c>UNKNOWN</c> (proxy-protocol.txt section 2.1: the connection's own addresses then), whose destination half-closes
    /// first and whose client still sends after that (RFC 9293 §3.6: a half-closed connection still carries the other
    /// way). The header sent on names each connection's own addresses, each end is passed on once, in its turn, and each
    /// access log line has its own connection's client and byte counts.
    /// </summary>
    [Fact]
    public async Task RelaysTakenAgain_NothingOfTheLastConnectionShowsOnTheNext()
    {
        const string Accepting = "\"AcceptProxyProtocol\": true, \"TrustedNetworks\": [ \"127.0.0.0/8\" ], \"ProxyProtocolTimeout\": \"00:00:05\"";
        await using var origin = TcpOrigin.Manual();
        using var log = new AccessLogFile();
        await using var proxy = await TcpProxy.StartAsync(Accepting, "\"Metadata\": { \"Llrp.ProxyProtocol\": \"v1\" }", [origin.Address], log.Setting);
        var pairs = 4 * Environment.ProcessorCount;
        var expected = new List<(string Client, long Received, long Sent)>();
        for (var i = 0; i < pairs; i++)
        {
            var request = new string('q', 100 + i);
            var reply = new string('r', 3000 + i);
            using (var carried = await proxy.ConnectAsync())
            {
                await TcpSockets.SendAsync(carried, "PROXY TCP4 203.0.113.9 198.51.100.1 4000 443\r\n" + request);
                carried.Shutdown(SocketShutdown.Send);
                using var upstream = await origin.AcceptAsync();
                Assert.Equal("PROXY TCP4 203.0.113.9 198.51.100.1 4000 443\r\n" + request, await TcpSockets.ReceiveToEndAsync(upstream));
                await TcpSockets.SendAsync(upstream, reply);
                upstream.Shutdown(SocketShutdown.Send);
                Assert.Equal(reply, await TcpSockets.ReceiveToEndAsync(carried));
            }

            expected.Add(("203.0.113.9", request.Length, reply.Length));
            using (var own = await proxy.ConnectAsync())
            {
                var port = ((IPEndPoint)own.LocalEndPoint!).Port;
                await TcpSockets.SendAsync(own, "PROXY UNKNOWN\r\nx");
                using var upstream = await origin.AcceptAsync();
                var header = $"PROXY TCP4 127.0.0.1 127.0.0.1 {port} {proxy.Port}\r\nx";
                Assert.Equal(header, await TcpSockets.ReceiveAsync(upstream, header.Length));
                await TcpSockets.SendAsync(upstream, "y");
                upstream.Shutdown(SocketShutdown.Send);
                Assert.Equal("y", await TcpSockets.ReceiveToEndAsync(own));
                await TcpSockets.SendAsync(own, "after");
                own.Shutdown(SocketShutdown.Send);
                Assert.Equal("after", await TcpSockets.ReceiveToEndAsync(upstream));
            }

            expected.Add(("127.0.0.1", 1 + "after".Length, 1));
        }

        // Each line is written as its connection ends, on its loop's thread: two loops' lines may come in either order.
        var logged = (await log.WaitForLinesAsync(expected.Count)).Select(line => (
            Client: line[..line.IndexOf(' ', StringComparison.Ordinal)],
            Received: long.Parse(Field(line, "bytes_received"), CultureInfo.InvariantCulture),
            Sent: long.Parse(Field(line, "bytes_sent"), CultureInfo.InvariantCulture),
            End: Field(line, "end")));
        Assert.Equal(expected.Select(entry => (entry.Client, entry.Received, entry.Sent, End: "closed")).Order(), logged.Order());
    }

    /// <summary>
    /// A destination whose accept queue is full drops the SYN (Linux, <c>tcp_conn_request</c>), so its connect never
    /// completes: the route's <c>ConnectTimeout</c> ends it, and the client's connection is closed unrelayed (without the
    /// timeout it would stay open past the test's deadline).
    /// </summary>
    [Fact]
    public async Task ConnectTimeout_DestinationDropsTheSyn_ClientClosedUnrelayed()
    {
        using var full = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        full.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        full.Listen(0);
        using var queued = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await queued.ConnectAsync(full.LocalEndPoint!).WaitAsync(Deadline.Io);
        var port = ((IPEndPoint)full.LocalEndPoint!).Port;
        await using var proxy = await TcpProxy.StartAsync("\"ConnectTimeout\": \"00:00:00.500\"", "", [$"tcp://127.0.0.1:{port}"]);
        using var client = await proxy.ConnectAsync();

        await TcpSockets.AssertEndedAsync(client);
    }

    /// <summary>
    /// The connect's deadline comes before the PROXY protocol header's would have: the relay waits for the earlier one (a
    /// header timeout of a minute, past the test's deadline, would otherwise hold the client's connection open).
    /// </summary>
    [Fact]
    public async Task ConnectTimeout_ShorterThanTheHeaderTimeoutBeforeIt_EndsTheConnection()
    {
        using var full = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        full.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        full.Listen(0);
        using var queued = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await queued.ConnectAsync(full.LocalEndPoint!).WaitAsync(Deadline.Io);
        var port = ((IPEndPoint)full.LocalEndPoint!).Port;
        const string Route = "\"ConnectTimeout\": \"00:00:00.500\", \"AcceptProxyProtocol\": true, \"TrustedNetworks\": [ \"127.0.0.0/8\" ], \"ProxyProtocolTimeout\": \"00:01:00\"";
        await using var proxy = await TcpProxy.StartAsync(Route, "", [$"tcp://127.0.0.1:{port}"]);
        using var client = await proxy.ConnectAsync();
        await TcpSockets.SendAsync(client, "PROXY TCP4 203.0.113.9 198.51.100.1 4000 443\r\n");

        await TcpSockets.AssertEndedAsync(client);
    }

    /// <summary>Every relay of the loops left idle is ended by its idle timeout, once each, whatever slot its deadline fell in.</summary>
    [Fact]
    public async Task IdleTimeout_ManyRelays_EachEndedOnce()
    {
        await using var origin = TcpOrigin.Echo();
        using var log = new AccessLogFile();
        await using var proxy = await TcpProxy.StartAsync("\"IdleTimeout\": \"00:00:01\"", "", [origin.Address], log.Setting);
        var clients = new List<Socket>();
        try
        {
            for (var i = 0; i < 12; i++)
            {
                var client = await proxy.ConnectAsync();
                clients.Add(client);
                await TcpSockets.SendAsync(client, "x");
                Assert.Equal("x", await TcpSockets.ReceiveAsync(client, 1));
            }

            foreach (var client in clients)
            {
                Assert.Equal("", await TcpSockets.ReceiveToEndAsync(client));
            }
        }
        finally
        {
            clients.ForEach(client => client.Dispose());
        }

        var lines = await log.WaitForLinesAsync(12);
        Assert.Equal(12, lines.Length);
        Assert.All(lines, line => Assert.EndsWith(" end=idle_timeout", line, StringComparison.Ordinal));
    }

    /// <summary>The value of <paramref name="name"/> in a combined access log line of a TCP route (<c>name=value</c>, up to the next space).</summary>
    private static string Field(string line, string name)
    {
        var start = line.IndexOf($" {name}=", StringComparison.Ordinal) + name.Length + 2;
        var end = line.IndexOf(' ', start);
        return end < 0 ? line[start..] : line[start..end];
    }

    private static async Task<(long Bytes, byte[] Hash)> SendAsync(Socket socket, int seed, CancellationToken cancellationToken)
    {
        var block = new byte[Block];
        new Random(seed).NextBytes(block);
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        for (var i = 0L; i < GiB / Block; i++)
        {
            // Each block differs from the others, so that a block lost, repeated or out of order changes the hash.
            BitConverter.TryWriteBytes(block, i);
            hash.AppendData(block);
            await socket.SendAsync(block, SocketFlags.None, cancellationToken);
        }

        socket.Shutdown(SocketShutdown.Send);
        return (GiB, hash.GetHashAndReset());
    }

    private static async Task<(long Bytes, byte[] Hash)> ReceiveAsync(Socket socket, CancellationToken cancellationToken)
    {
        var buffer = new byte[256 * 1024];
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        long total = 0;
        int read;
        while ((read = await socket.ReceiveAsync(buffer, SocketFlags.None, cancellationToken)) > 0)
        {
            hash.AppendData(buffer, 0, read);
            total += read;
        }

        return (total, hash.GetHashAndReset());
    }

    /// <summary>Sends a message naming the connection and the exchange, and reads it back from the echoing origin, <see cref="Exchanges"/> times.</summary>
    private static async Task ExchangeAsync(Socket client, int connection)
    {
        for (var exchange = 0; exchange < Exchanges; exchange++)
        {
            var message = $"connection {connection:D2} exchange {exchange:D3};";
            await TcpSockets.SendAsync(client, message);
            Assert.Equal(message, await TcpSockets.ReceiveAsync(client, message.Length));
        }
    }
}
