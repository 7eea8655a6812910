using System.Net;
using System.Net.Sockets;
using LLRP.FunctionalTests.AccessLog;
using LLRP.FunctionalTests.Hardening;

namespace LLRP.FunctionalTests.Tcp;

/// <summary>
/// A TCP route with <c>AcceptProxyProtocol</c> reads a PROXY protocol header (HAProxy's proxy-protocol.txt) first, from
/// its trusted networks only: the address it carries is the client's in the access log and in the header sent on; an
/// untrusted, malformed, cut or late header closes the connection, counted, and nothing of it reaches a destination.
/// </summary>
public sealed class ProxyProtocolAcceptTests
{
    private const string Accepting = "\"AcceptProxyProtocol\": true, \"TrustedNetworks\": [ \"127.0.0.0/8\" ], \"ProxyProtocolTimeout\": \"00:00:01\"";

    private static readonly byte[] Signature = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A];

    [Fact]
    public async Task Trusted_V1_CarriedAddressIsTheClients_InTheLogAndTheHeaderSentOn()
    {
        await using var origin = TcpOrigin.Manual();
        using var log = new AccessLogFile();
        await using var proxy = await TcpProxy.StartAsync(Accepting, "\"Metadata\": { \"Llrp.ProxyProtocol\": \"v1\" }", [origin.Address], log.Setting);
        using (var client = await proxy.ConnectAsync())
        {
            await TcpSockets.SendAsync(client, "PROXY TCP4 203.0.113.7 198.51.100.1 4000 443\r\nhello");
            using var upstream = await origin.AcceptAsync();

            const string expected = "PROXY TCP4 203.0.113.7 198.51.100.1 4000 443\r\nhello";
            Assert.Equal(expected, await TcpSockets.ReceiveAsync(upstream, expected.Length));
            client.Shutdown(SocketShutdown.Send);
            Assert.Equal("", await TcpSockets.ReceiveToEndAsync(upstream));
        }

        Assert.StartsWith("203.0.113.7 - - [", Assert.Single(await log.WaitForLinesAsync(1)), StringComparison.Ordinal);
    }

    /// <summary>
    /// Section 2.2 with TLVs: IPv6 addresses carried on in the v2 header sent on, with the ALPN (0x01) and authority (0x02)
    /// TLVs the client's header had (section 2.2.1, as HAProxy passes them on); others (NOOP, 0x04) are read, not forwarded.
    /// The access log line has the ALPN and the authority.
    /// </summary>
    [Fact]
    public async Task Trusted_V2_IPv6WithTlvs_AlpnAndAuthorityCarriedOnAndLogged()
    {
        await using var origin = TcpOrigin.Manual();
        using var log = new AccessLogFile();
        await using var proxy = await TcpProxy.StartAsync(Accepting, "\"Metadata\": { \"Llrp.ProxyProtocol\": \"v2\" }", [origin.Address], log.Setting);
        byte[] addresses = [.. IPAddress.Parse("2001:db8::7").GetAddressBytes(), .. IPAddress.Parse("2001:db8::1").GetAddressBytes(), 0x0F, 0xA0, 0x01, 0xBB];
        byte[] alpn = [0x01, 0x00, 0x02, (byte)'h', (byte)'2'];
        byte[] authority = [0x02, 0x00, 0x0B, .. "example.com"u8];
        byte[] noop = [0x04, 0x00, 0x03, 0, 0, 0];
        byte[] header = [.. Signature, 0x21, 0x21, 0x00, (byte)(addresses.Length + noop.Length + authority.Length + alpn.Length), .. addresses, .. noop, .. authority, .. alpn];
        using (var client = await proxy.ConnectAsync())
        {
            await client.SendAsync((byte[])[.. header, .. "hello"u8], SocketFlags.None);
            using var upstream = await origin.AcceptAsync();

            var received = System.Text.Encoding.Latin1.GetBytes(await TcpSockets.ReceiveAsync(upstream, 52 + alpn.Length + authority.Length + 5));
            Assert.Equal((byte[])[.. Signature, 0x21, 0x21, 0x00, (byte)(36 + alpn.Length + authority.Length), .. addresses, .. alpn, .. authority, .. "hello"u8], received);
            client.Shutdown(SocketShutdown.Send);
            Assert.Equal("", await TcpSockets.ReceiveToEndAsync(upstream));
        }

        var line = Assert.Single(await log.WaitForLinesAsync(1));
        Assert.StartsWith("2001:db8::7 - - [", line, StringComparison.Ordinal);
        Assert.EndsWith(" end=closed proxy_protocol_tlv_alpn=h2 proxy_protocol_tlv_authority=example.com", line, StringComparison.Ordinal);
    }

    /// <summary>An authority TLV that is not visible ASCII (here a line break) is refused with the header: nothing reaches a log line or a destination (every byte sent is ASCII, as the helper sends it).</summary>
    [Fact]
    public async Task V2_AuthorityWithALineBreak_ClosedUnrelayed()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync(Accepting, "", [origin.Address]);
        byte[] authority = [0x02, 0x00, 0x04, (byte)'a', (byte)'\r', (byte)'\n', (byte)'b'];
        byte[] header = [.. Signature, 0x21, 0x11, 0x00, (byte)(12 + authority.Length), 10, 0, 0, 7, 10, 0, 0, 1, 0x0F, 0x0F, 0x01, 0x01, .. authority];
        await AssertRefusedAsync(proxy, origin, System.Text.Encoding.Latin1.GetString([.. header, .. "hello"u8]), "proxy_header_invalid");
    }

    [Fact]
    public async Task Untrusted_ClosedUnrelayed()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync(Accepting.Replace("127.0.0.0/8", "10.0.0.0/8", StringComparison.Ordinal), "", [origin.Address]);
        await AssertRefusedAsync(proxy, origin, "PROXY TCP4 203.0.113.7 198.51.100.1 4000 443\r\nhello", "proxy_header_untrusted");
    }

    [Theory]
    [InlineData("GET / HTTP/1.1\r\nHost: a\r\n\r\n")]
    [InlineData("PROXY TCP4 203.0.113.7 198.51.100.1 4000 99999\r\nhello")]
    [InlineData("PROXY TCP4 203.0.113.7 198.51.100.1 4000  443\r\nhello")]
    public async Task Malformed_ClosedUnrelayed(string sent)
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync(Accepting, "", [origin.Address]);
        await AssertRefusedAsync(proxy, origin, sent, "proxy_header_invalid");
    }

    [Fact]
    public async Task Truncated_ClientEndsMidHeader_ClosedUnrelayed()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync(Accepting, "", [origin.Address]);
        await AssertRefusedAsync(proxy, origin, "PROXY TCP4 203.0", "proxy_header_truncated", finish: true);
    }

    [Fact]
    public async Task Slow_NoWholeHeaderWithinTheTimeout_ClosedUnrelayed()
    {
        await using var origin = TcpOrigin.Echo();
        await using var proxy = await TcpProxy.StartAsync(Accepting, "", [origin.Address]);
        await AssertRefusedAsync(proxy, origin, "PROXY TCP4 ", "proxy_header_timeout");
    }

    private static async Task AssertRefusedAsync(TcpProxy proxy, TcpOrigin origin, string sent, string reason, bool finish = false)
    {
        using var meters = new ProxyMeterRecorder(proxy.App);
        using var client = await proxy.ConnectAsync();
        await TcpSockets.SendAsync(client, sent);
        if (finish)
        {
            client.Shutdown(SocketShutdown.Send);
        }

        await TcpSockets.AssertEndedAsync(client);
        await meters.WaitForSumAsync("llrp.tcp.active_connections", 0);
        Assert.Equal(1, meters.Sum("llrp.tcp.refused_connections", "reason", reason));
        Assert.Equal(0, origin.Accepted);
    }
}
