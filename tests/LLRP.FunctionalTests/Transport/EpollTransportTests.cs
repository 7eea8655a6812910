using System.Net;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using LLRP.Configuration;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Hosting;
using LLRP.Transport.Epoll;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.FunctionalTests.Transport;

/// <summary>
/// What the epoll transport (<c>transport=epoll</c>) itself promises, beside the functional suite every raw mode runs over
/// it: an idle connection holds no buffer, ends and resets of either side pass through, many connections at once, and a
/// stop that closes what is open.
/// </summary>
public sealed class EpollTransportTests
{
    private const int ManyConnections = 200;
    private const int RequestsPerConnection = 5;
    private const int IdleClients = 20;

    /// <summary>Blocks rented from the transport's pool and not returned; 0 when every connection is idle.</summary>
    private static long HeldBlocks(ProxiedDownstream stack) => stack.Proxy.Services.GetRequiredService<EpollTransport>().Pool.Rented;

    [Theory]
    [InlineData(LlrpModes.RawPooledEpoll)]
    [InlineData(LlrpModes.RawPerClientEpoll)]
    public async Task IdleConnections_HoldNoBuffer(string mode)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);

        // The last response's blocks go back once the loop has sent them, right after the client read them.
        await WhileClientsIdleAsync(stack, "/?s=100000", () => Assert.True(
            SpinWait.SpinUntil(() => HeldBlocks(stack) == 0, Deadline.Io),
            $"{HeldBlocks(stack)} blocks held by {IdleClients} idle client connections and their idle upstream connections."));
    }

    /// <summary>
    /// A block given back to the pool is kept by nothing else: once the pool lets go of it, the GC takes it, however many
    /// connections idle after being served from it (each connection's request head, and the relay's response head, were
    /// parsed in such blocks).
    /// </summary>
    [Theory]
    [InlineData(LlrpModes.RawPooledEpoll)]
    [InlineData(LlrpModes.RawPerClientEpoll)]
    public async Task IdleConnections_KeepNoBlockTheirHeadsCameIn(string mode)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await WhileClientsIdleAsync(stack, "/?s=10", () =>
        {
            Assert.True(SpinWait.SpinUntil(() => HeldBlocks(stack) == 0, Deadline.Io), $"{HeldBlocks(stack)} blocks held by {IdleClients} idle client connections.");
            var blocks = LetGoOfEveryKeptBlock(stack.Proxy.Services.GetRequiredService<EpollTransport>().Pool);
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();

            Assert.Equal(0, blocks.Count(block => block.IsAlive));
        });
    }

    /// <summary>Opens <see cref="IdleClients"/> client connections, each served one GET of <paramref name="target"/>, and checks <paramref name="whileIdle"/> with all of them idle.</summary>
    private static async Task WhileClientsIdleAsync(ProxiedDownstream stack, string target, Action whileIdle)
    {
        var clients = new List<RawHttpClient>();
        try
        {
            for (var i = 0; i < IdleClients; i++)
            {
                var client = await stack.ConnectAsync();
                clients.Add(client);
                Assert.Equal(200, (await client.GetAsync(target)).StatusCode);
            }

            whileIdle();
        }
        finally
        {
            foreach (var client in clients)
            {
                await client.DisposeAsync();
            }
        }
    }

    // RFC 9112 §9.6: a client that half-closes after its request still gets the response, then the proxy closes.
    [Fact]
    public async Task ClientHalfClose_ResponseArrivesThenClose()
    {
        await using var stack = await ProxiedDownstream.StartAsync(LlrpModes.RawPooledEpoll);
        await using var client = await stack.ConnectAsync();

        await client.SendAsync("GET /?s=70000 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        client.ShutdownSend();
        var response = await client.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        Assert.Equal(70000, response.Body.Length);
        await client.AssertClosedByPeerAsync();
    }

    [Fact]
    public async Task ClientReset_MidRequest_NothingHeldAndProxyServes()
    {
        await using var stack = await ProxiedDownstream.StartAsync(LlrpModes.RawPooledEpoll);
        var client = await stack.ConnectAsync();
        await client.SendAsync("POST /echo HTTP/1.1\r\nHost: client.test\r\nContent-Length: 1000000\r\n\r\npartial");
        client.Reset();

        Assert.Equal(200, (await stack.Proxy.GetOnNewConnectionAsync("/?s=10")).StatusCode);
        Assert.True(SpinWait.SpinUntil(() => HeldBlocks(stack) == 0, Deadline.Io), $"{HeldBlocks(stack)} blocks held after a reset.");
    }

    [Fact]
    public async Task ManyConnections_EachGetsItsOwnResponses()
    {
        await using var stack = await ProxiedDownstream.StartAsync(LlrpModes.RawPooledEpoll);

        var sizes = await Task.WhenAll(Enumerable.Range(1, ManyConnections).Select(async id =>
        {
            await using var client = await stack.ConnectAsync();
            var total = 0;
            for (var i = 0; i < RequestsPerConnection; i++)
            {
                var response = await client.GetAsync($"/?s={id + i}");
                Assert.Equal(200, response.StatusCode);
                Assert.Equal(id + i, response.Body.Length);
                total += response.Body.Length;
            }

            return total;
        }));

        Assert.Equal(Enumerable.Range(1, ManyConnections).Sum(id => (RequestsPerConnection * id) + 10), sizes.Sum());
    }

    [Fact]
    public async Task Stop_ClosesIdleClientConnections()
    {
        var stack = await ProxiedDownstream.StartAsync(LlrpModes.RawPooledEpoll);
        await using var client = await stack.ConnectAsync();
        Assert.Equal(200, (await client.GetAsync("/?s=10")).StatusCode);

        await stack.DisposeAsync();

        await client.AssertClosedByPeerAsync();
    }

    [Fact]
    public async Task Listener_PortInUse_Refused()
    {
        using var holder = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        holder.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        holder.Listen();
        var port = ((IPEndPoint)holder.LocalEndPoint!).Port;

        var error = await Assert.ThrowsAsync<ProxyConfigurationException>(async () =>
        {
            var app = ProxyHost.Build([$"--urls=http://127.0.0.1:{port}", "--downstream=http://127.0.0.1:1", "--transport=epoll"]);
            await using (app)
            {
                await ProxyHost.StartAsync(app);
            }
        });

        Assert.Contains("in use", error.Message, StringComparison.Ordinal);
    }

    /// <summary>
    /// Takes every large block the pool keeps (and one it makes), gives them back and trims twice (the first trim marks
    /// them as unused, the second lets go of them): weak references to them, and no strong one left on this frame.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static List<WeakReference> LetGoOfEveryKeptBlock(PinnedBlockPool pool)
    {
        var owners = Enumerable.Range(0, pool.Kept + 1).Select(_ => pool.Rent(PinnedBlockPool.LargeSize)).ToList();
        var blocks = owners.Select(owner => new WeakReference(owner)).ToList();
        foreach (var owner in owners)
        {
            owner.Dispose();
        }

        pool.Trim();
        pool.Trim();
        return blocks;
    }
}
