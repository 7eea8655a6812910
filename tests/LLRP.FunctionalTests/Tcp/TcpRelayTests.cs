using System.Net.Sockets;
using System.Security.Cryptography;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Tcp;

/// <summary>
/// A TCP route relays bytes both ways over real loopback sockets, and passes on what TCP says about a connection's end
/// (RFC 9293 §3.6): a FIN closes one direction only (half-close), a RST resets the other side too.
/// </summary>
public sealed class TcpRelayTests
{
    private const int TransferSize = 64 * 1024 * 1024;

    /// <param name="settings">
    /// <c>tcp.splice</c>: on Linux, the spliced relay, else the copy loop; over the default transport (on Linux epoll: the
    /// HTTP listeners on LLRP's own transport, the route's connections still the relay's own sockets) and over
    /// <c>transport=sockets</c>.
    /// </param>
    [Theory]
    [InlineData("tcp.splice=true")]
    [InlineData("tcp.splice=false")]
    [InlineData("tcp.splice=true transport=sockets")]
    [InlineData("tcp.splice=false transport=sockets")]
    public async Task Transfer_64MiBEachWay_SameBytes_ThenClientFinEndsBoth(string settings)
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address], settings.Split(' '));
        using var client = await proxy.ConnectAsync();

        var payload = new byte[1024 * 1024];
        new Random(20).NextBytes(payload);
        var sent = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        var received = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        var sending = Task.Run(async () =>
        {
            for (var i = 0; i < TransferSize / payload.Length; i++)
            {
                sent.AppendData(payload);
                await client.SendAsync(payload, SocketFlags.None);
            }

            client.Shutdown(SocketShutdown.Send);
        });
        long total = 0;
        await Deadline.RunAsync(async token =>
        {
            var buffer = new byte[256 * 1024];
            int n;
            while ((n = await client.ReceiveAsync(buffer, SocketFlags.None, token)) > 0)
            {
                received.AppendData(buffer, 0, n);
                total += n;
            }
        }, "the echo of 64 MiB");
        await sending;

        Assert.Equal(TransferSize, total);
        Assert.Equal(sent.GetHashAndReset(), received.GetHashAndReset());
    }

    [Fact]
    public async Task HalfClose_FromClient_DestinationStillSends()
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address]);
        using var client = await proxy.ConnectAsync();
        using var upstream = await origin.AcceptAsync();

        await TcpSockets.SendAsync(client, "last words");
        client.Shutdown(SocketShutdown.Send);
        Assert.Equal("last words", await TcpSockets.ReceiveToEndAsync(upstream));

        await TcpSockets.SendAsync(upstream, "answer after the client's FIN");
        upstream.Shutdown(SocketShutdown.Send);
        Assert.Equal("answer after the client's FIN", await TcpSockets.ReceiveToEndAsync(client));
    }

    [Fact]
    public async Task HalfClose_FromDestination_ClientStillSends()
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address]);
        using var client = await proxy.ConnectAsync();
        using var upstream = await origin.AcceptAsync();

        await TcpSockets.SendAsync(upstream, "banner");
        upstream.Shutdown(SocketShutdown.Send);
        Assert.Equal("banner", await TcpSockets.ReceiveToEndAsync(client));

        await TcpSockets.SendAsync(client, "request after the destination's FIN");
        client.Shutdown(SocketShutdown.Send);
        Assert.Equal("request after the destination's FIN", await TcpSockets.ReceiveToEndAsync(upstream));
    }

    [Fact]
    public async Task Reset_FromClient_ResetsTheUpstreamConnection()
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address]);
        var client = await proxy.ConnectAsync();
        using var upstream = await origin.AcceptAsync();
        await TcpSockets.SendAsync(client, "ping");
        Assert.Equal("ping", await TcpSockets.ReceiveAsync(upstream, 4));

        TcpSockets.Reset(client);

        await TcpSockets.AssertResetAsync(upstream);
    }

    [Fact]
    public async Task Reset_FromDestination_ResetsTheClientConnection()
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address]);
        using var client = await proxy.ConnectAsync();
        var upstream = await origin.AcceptAsync();
        await TcpSockets.SendAsync(upstream, "pong");
        Assert.Equal("pong", await TcpSockets.ReceiveAsync(client, 4));

        TcpSockets.Reset(upstream);

        await TcpSockets.AssertResetAsync(client);
    }

    [Fact]
    public async Task IdleTimeout_NoByteEitherWay_ClosesBothSides()
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync("\"IdleTimeout\": \"00:00:01\"", "", [origin.Address]);
        using var client = await proxy.ConnectAsync();
        using var upstream = await origin.AcceptAsync();
        await TcpSockets.SendAsync(client, "once");
        Assert.Equal("once", await TcpSockets.ReceiveAsync(upstream, 4));

        Assert.Equal("", await TcpSockets.ReceiveToEndAsync(client));
        Assert.Equal("", await TcpSockets.ReceiveToEndAsync(upstream));
    }
}
