using System.Net.Sockets;
using System.Security.Cryptography;
using System.Text;
using LLRP.Configuration;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Hosting;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.FunctionalTests.Tcp;

/// <summary>
/// On Linux a TCP route relays with splice(2) on a listening socket of its own; <c>tcp.splice=false</c> (or another
/// system) relays with the copy loop over Kestrel's sockets transport. The start-up report says which.
/// </summary>
public sealed class TcpSpliceTests
{
    [Theory]
    [InlineData("tcp.splice=true", "splice")]
    [InlineData("tcp.splice=false", "copy")]
    public async Task StartupReport_SaysHowTheRouteRelays(string setting, string onLinux)
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address], setting);

        var report = StartupReport.Describe(proxy.App.Services.GetRequiredService<ProxyOptions>(), [], [], [], transportQueues: 1);

        Assert.Contains($", relay {(OperatingSystem.IsLinux() ? onLinux : "copy")}", report, StringComparison.Ordinal);
    }

    /// <summary>
    /// The bytes after a PROXY protocol header (its section 2) arrive with it, so the header's reader has read some of them
    /// already: those go first, the rest is spliced after them, in order.
    /// </summary>
    [Fact]
    public async Task ProxyHeaderThen16MiB_BytesReadWithTheHeaderGoFirst_SameBytesBack()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync("\"AcceptProxyProtocol\": true, \"TrustedNetworks\": [ \"127.0.0.0/8\" ]", "", [origin.Address]);
        using var client = await proxy.ConnectAsync();

        var payload = new byte[16 * 1024 * 1024];
        new Random(2020).NextBytes(payload);
        var header = Encoding.ASCII.GetBytes("PROXY TCP4 203.0.113.7 198.51.100.1 4000 443\r\n");
        var sending = Task.Run(async () =>
        {
            await client.SendAsync(header.Concat(payload.AsSpan(0, 1000).ToArray()).ToArray(), SocketFlags.None);
            await client.SendAsync(payload.AsMemory(1000), SocketFlags.None);
            client.Shutdown(SocketShutdown.Send);
        });
        var received = new MemoryStream();
        await Deadline.RunAsync(async token =>
        {
            var buffer = new byte[256 * 1024];
            int n;
            while ((n = await client.ReceiveAsync(buffer, SocketFlags.None, token)) > 0)
            {
                received.Write(buffer, 0, n);
            }
        }, "the echo of 16 MiB");
        await sending;

        Assert.Equal(payload.Length, received.Length);
        Assert.Equal(SHA256.HashData(payload), SHA256.HashData(received.ToArray()));
    }

    /// <summary>
    /// A client that reads in small pieces fills its socket: the relay waits for room with the bytes in its pipe, and every
    /// byte still arrives, in order, followed by the destination's end of stream.
    /// </summary>
    [Fact]
    public async Task Download_32MiB_ClientReadsInSmallPieces_SameBytesThenEnd()
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address]);
        using var client = await proxy.ConnectAsync();
        using var upstream = await origin.AcceptAsync();

        var payload = new byte[32 * 1024 * 1024];
        new Random(32).NextBytes(payload);
        var sending = Task.Run(async () =>
        {
            await upstream.SendAsync(payload, SocketFlags.None);
            upstream.Shutdown(SocketShutdown.Send);
        });
        var received = new MemoryStream();
        await Deadline.RunAsync(async token =>
        {
            var buffer = new byte[1024];
            int n;
            while ((n = await client.ReceiveAsync(buffer, SocketFlags.None, token)) > 0)
            {
                received.Write(buffer, 0, n);
            }
        }, "32 MiB read 1 KiB at a time");
        await sending;

        Assert.Equal(payload.Length, received.Length);
        Assert.Equal(SHA256.HashData(payload), SHA256.HashData(received.ToArray()));
    }

    /// <summary>
    /// Bursts below the long-transfer mark are spliced, a burst past it turns the direction to copies for the rest of the
    /// connection: 100 KB bursts, each read whole before the next, then 4 MiB, then 100 KB bursts again. Every byte
    /// arrives, in order, through each change of how the relay moves them, a download's and an upload's alike.
    /// </summary>
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task ShortBurstsThenALongOneThenShortOnes_SameBytesInOrder(bool upload)
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync("", "", [origin.Address]);
        using var client = await proxy.ConnectAsync();
        using var upstream = await origin.AcceptAsync();
        var (sender, receiver) = upload ? (client, upstream) : (upstream, client);

        int[] bursts = [100_000, 100_000, 100_000, 4 * 1024 * 1024, 100_000, 100_000, 100_000];
        var random = new Random(7);
        foreach (var length in bursts)
        {
            var burst = new byte[length];
            random.NextBytes(burst);
            var sending = sender.SendAsync(burst, SocketFlags.None);
            Assert.Equal(SHA256.HashData(burst), await TcpSockets.ReceiveHashedAsync(receiver, length));
            Assert.Equal(length, await sending);
        }
    }
}
