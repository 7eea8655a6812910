using System.Net.Sockets;
using System.Security.Cryptography;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Tcp;

/// <summary>
/// One side stops reading, so the other side's bytes wait in the relay (its pipe, or its buffer) for room: a reset from
/// the sending side is still passed on at once (RFC 9293 §3.10.7.3: a RST aborts the connection), and a FIN from it
/// (§3.6: a half-close) is passed on only after every byte before it. The idle timeout is ten minutes, so only the relay
/// itself can end what the tests wait for; each wait is bounded by <see cref="Deadline.Io"/>. A socket's reset is seen
/// while nothing reads it in its pending error (<c>SO_ERROR</c>): by the spliced relay at epoll's error, by the copy
/// loop (<c>tcp.splice=false</c>) at its next heartbeat.
/// </summary>
public sealed class TcpBackPressureTests
{
    private const string LongIdle = "\"IdleTimeout\": \"00:10:00\"";

    /// <summary>
    /// The client does not read, so the origin's bytes fill the client's socket and wait in the relay; the origin then
    /// resets. The relay passes the reset on to the client before it reads (its socket's pending error says so), and the
    /// client then reads the bytes that reached it and the reset.
    /// </summary>
    [Theory]
    [InlineData("tcp.splice=true")]
    [InlineData("tcp.splice=false")]
    public async Task OriginResets_WhileItsBytesWaitForAClientThatDoesNotRead_ClientReset(string setting)
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync(LongIdle, "", [origin.Address], setting);
        using var client = await proxy.ConnectAsync();
        var upstream = await origin.AcceptAsync();

        TcpSockets.FillUntilFull(upstream, null);
        TcpSockets.Reset(upstream);

        Assert.True(client.Poll(Deadline.Io, SelectMode.SelectError), "The client's socket was not reset while it did not read.");
        await TcpSockets.AssertResetAsync(client);
    }

    /// <summary>The mirror of <see cref="OriginResets_WhileItsBytesWaitForAClientThatDoesNotRead_ClientReset"/>: the origin does not read, the client resets.</summary>
    [Theory]
    [InlineData("tcp.splice=true")]
    [InlineData("tcp.splice=false")]
    public async Task ClientResets_WhileItsBytesWaitForAnOriginThatDoesNotRead_OriginReset(string setting)
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync(LongIdle, "", [origin.Address], setting);
        var client = await proxy.ConnectAsync();
        using var upstream = await origin.AcceptAsync();

        TcpSockets.FillUntilFull(client, null);
        TcpSockets.Reset(client);

        Assert.True(upstream.Poll(Deadline.Io, SelectMode.SelectError), "The origin's socket was not reset while it did not read.");
        await TcpSockets.AssertResetAsync(upstream);
    }

    /// <summary>
    /// The origin sends until every buffer up to the client, which does not read, is full, then its FIN: the FIN reaches
    /// the relay while bytes before it still wait there. The client then reads every byte, in order, then the end of stream.
    /// </summary>
    [Theory]
    [InlineData("tcp.splice=true")]
    [InlineData("tcp.splice=false")]
    public async Task HalfClose_FromOrigin_WhileItsBytesWaitForTheClient_EveryByteThenEnd(string setting)
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync(LongIdle, "", [origin.Address], setting);
        using var client = await proxy.ConnectAsync();
        using var upstream = await origin.AcceptAsync();
        using var sent = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);

        var count = TcpSockets.FillUntilFull(upstream, sent);
        upstream.Shutdown(SocketShutdown.Send);

        var (received, hash) = await TcpSockets.ReceiveToEndHashedAsync(client);
        Assert.Equal(count, received);
        Assert.Equal(sent.GetHashAndReset(), hash);
    }

    /// <summary>The mirror of <see cref="HalfClose_FromOrigin_WhileItsBytesWaitForTheClient_EveryByteThenEnd"/>: the client's bytes and FIN, to an origin that does not read.</summary>
    [Theory]
    [InlineData("tcp.splice=true")]
    [InlineData("tcp.splice=false")]
    public async Task HalfClose_FromClient_WhileItsBytesWaitForTheOrigin_EveryByteThenEnd(string setting)
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync(LongIdle, "", [origin.Address], setting);
        using var client = await proxy.ConnectAsync();
        using var upstream = await origin.AcceptAsync();
        using var sent = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);

        var count = TcpSockets.FillUntilFull(client, sent);
        client.Shutdown(SocketShutdown.Send);

        var (received, hash) = await TcpSockets.ReceiveToEndHashedAsync(upstream);
        Assert.Equal(count, received);
        Assert.Equal(sent.GetHashAndReset(), hash);
    }

    /// <summary>
    /// One side does not read until every buffer up to it is full, then reads every byte, twice; the other side then sends a
    /// last message. While the bytes waited for the reader's room the relay stopped watching the sender's socket for more;
    /// once it has read that socket dry it watches it again, so the last message arrives. The client's stall (the origin's
    /// bytes wait) and the origin's (the client's bytes wait) alike.
    /// </summary>
    [Theory]
    [InlineData("tcp.splice=true", true)]
    [InlineData("tcp.splice=false", true)]
    [InlineData("tcp.splice=true", false)]
    [InlineData("tcp.splice=false", false)]
    public async Task OneSideStopsReadingTwice_ThenReadsEveryByte_LaterBytesStillRelayed(string setting, bool clientStops)
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync(LongIdle, "", [origin.Address], setting);
        using var client = await proxy.ConnectAsync();
        using var upstream = await origin.AcceptAsync();

        await AssertStallsThenRelaysAsync(clientStops ? upstream : client, clientStops ? client : upstream);
    }

    /// <summary>Fills the way from <paramref name="sender"/> to <paramref name="receiver"/> and drains it, twice, every byte in order; then a last message goes through.</summary>
    private static async Task AssertStallsThenRelaysAsync(Socket sender, Socket receiver)
    {
        for (var stall = 0; stall < 2; stall++)
        {
            using var sent = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
            var count = TcpSockets.FillUntilFull(sender, sent);
            Assert.Equal(sent.GetHashAndReset(), await TcpSockets.ReceiveHashedAsync(receiver, count));
        }

        await TcpSockets.SendAsync(sender, "last");
        Assert.Equal("last", await TcpSockets.ReceiveAsync(receiver, 4));
    }
}
