using System.Net;
using System.Net.Sockets;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>
/// A client that stops reading a large response holds the proxy back instead of filling its memory: the proxy stops
/// reading the origin (back-pressure), so what the origin manages to write stays bounded by the buffers on the way,
/// far below the body's size. Observed from the kernel, not from the clock: the origin's connection enters zero-window
/// probing (the proxy's receive buffer is full because the proxy does not read it), stays there over further probes
/// without one more byte written, and the body then arrives whole once the client reads again.
/// </summary>
public sealed class SlowReaderTests
{
    private const long BodyLength = 64L * 1024 * 1024;

    /// <summary>
    /// The most the origin may write while the client reads nothing: the kernel's socket buffers on the way (as Linux
    /// autotunes them for this exchange, 5 to 7 MiB in all was seen in every mode) and the proxy's pipes, with room to
    /// spare; reading the whole body into memory would take 64 MiB.
    /// </summary>
    private const long Bound = 24L * 1024 * 1024;

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ClientStopsReading_ProxyStopsReadingTheOriginThenDeliversTheWholeBody(string mode)
    {
        await using var origin = new StallingOrigin(BodyLength);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var client = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = 16 * 1024 };
        await client.ConnectAsync(new IPEndPoint(IPAddress.Loopback, proxy.Port));
        await client.SendAsync(Encoding.ASCII.GetBytes("GET /large HTTP/1.1\r\nHost: slow.test\r\n\r\n"));
        var upstream = await Deadline.RunAsync(token => new ValueTask<Socket>(origin.Connection.WaitAsync(token)), "The request reaching the origin");

        await Deadline.UntilAsync(() => TcpInfo.ZeroWindowBackoff(upstream) >= 1, "The proxy's receive window to the origin closing");
        var writtenWhenStalled = origin.Written;
        await Deadline.UntilAsync(() => TcpInfo.ZeroWindowBackoff(upstream) >= 3, "Two more zero-window probes to the proxy");
        var writtenAfterProbes = origin.Written;

        Assert.True(writtenWhenStalled <= Bound, $"The origin wrote {writtenWhenStalled} bytes to a client that read none.");
        Assert.Equal(writtenWhenStalled, writtenAfterProbes);
        await ReadWholeResponseAsync(client);
        Assert.Equal(BodyLength, origin.Written);
    }

    /// <summary>Reads the head and the whole body, checking every byte.</summary>
    private static async Task ReadWholeResponseAsync(Socket client)
    {
        var buffer = new byte[256 * 1024];
        var head = new List<byte>();
        long body = -1;
        while (body < BodyLength)
        {
            var read = await Deadline.RunAsync(token => client.ReceiveAsync(buffer, token), "Reading the response");
            Assert.True(read > 0, $"The proxy closed after {body} body bytes.");
            var start = 0;
            if (body < 0)
            {
                head.AddRange(buffer.AsSpan(0, read));
                var end = Encoding.Latin1.GetString([.. head]).IndexOf("\r\n\r\n", StringComparison.Ordinal);
                if (end < 0)
                {
                    continue;
                }

                Assert.StartsWith("HTTP/1.1 200 ", Encoding.Latin1.GetString([.. head]));
                start = read - (head.Count - (end + 4));
                body = 0;
            }

            for (var i = start; i < read; i++, body++)
            {
                Assert.True(buffer[i] == StallingOrigin.BodyByte(body), $"Body byte {body} is {buffer[i]}, not {StallingOrigin.BodyByte(body)}.");
            }
        }
    }
}
