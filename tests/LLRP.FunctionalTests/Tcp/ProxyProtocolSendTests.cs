using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;

namespace LLRP.FunctionalTests.Tcp;

/// <summary>
/// A cluster's <c>Metadata:Llrp.ProxyProtocol</c> sends the PROXY protocol header (HAProxy's proxy-protocol.txt) first on
/// each upstream connection, before any byte of the client's: the origin here parses it and checks it carries the
/// client's address and port, and the address and port the client connected to.
/// </summary>
public sealed class ProxyProtocolSendTests
{
    /// <summary>Section 2.1: one line, <c>PROXY TCP4 src dst sport dport\r\n</c>.</summary>
    [Fact]
    public async Task V1_IPv4_LineBeforeTheClientsBytes()
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync("", "\"Metadata\": { \"Llrp.ProxyProtocol\": \"v1\" }", [origin.Address]);
        using var client = await proxy.ConnectAsync();
        var port = ((IPEndPoint)client.LocalEndPoint!).Port;
        await TcpSockets.SendAsync(client, "hello");
        using var upstream = await origin.AcceptAsync();

        var expected = $"PROXY TCP4 127.0.0.1 127.0.0.1 {port} {proxy.Port}\r\nhello";
        Assert.Equal(expected, await TcpSockets.ReceiveAsync(upstream, expected.Length));
    }

    /// <summary>Section 2.2: the signature, 0x21 (v2, PROXY), 0x11 (TCP over IPv4), length 12, addresses and ports.</summary>
    [Fact]
    public async Task V2_IPv4_BinaryHeaderBeforeTheClientsBytes()
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync("", "\"Metadata\": { \"Llrp.ProxyProtocol\": \"v2\" }", [origin.Address]);
        using var client = await proxy.ConnectAsync();
        var port = ((IPEndPoint)client.LocalEndPoint!).Port;
        await TcpSockets.SendAsync(client, "hello");
        using var upstream = await origin.AcceptAsync();

        var received = await ReceiveBytesAsync(upstream, 28 + 5);
        Assert.Equal(Signature, received[..12]);
        Assert.Equal(new byte[] { 0x21, 0x11, 0x00, 0x0C, 127, 0, 0, 1, 127, 0, 0, 1 }, received[12..24]);
        Assert.Equal(port, BinaryPrimitives.ReadUInt16BigEndian(received.AsSpan(24)));
        Assert.Equal(proxy.Port, BinaryPrimitives.ReadUInt16BigEndian(received.AsSpan(26)));
        Assert.Equal("hello"u8.ToArray(), received[28..]);
    }

    /// <summary>Section 2.2: 0x21 (TCP over IPv6), length 36, 16-byte addresses.</summary>
    [Fact]
    public async Task V2_IPv6_BinaryHeaderBeforeTheClientsBytes()
    {
        await using var origin = TcpOrigin.Manual();
        await using var proxy = await TcpProxy.StartAsync("\"Listen\": \"[::1]:0\"", "\"Metadata\": { \"Llrp.ProxyProtocol\": \"v2\" }", [origin.Address]);
        using var client = await proxy.ConnectAsync();
        var port = ((IPEndPoint)client.LocalEndPoint!).Port;
        await TcpSockets.SendAsync(client, "hello");
        using var upstream = await origin.AcceptAsync();

        var received = await ReceiveBytesAsync(upstream, 52 + 5);
        Assert.Equal(Signature, received[..12]);
        Assert.Equal(new byte[] { 0x21, 0x21, 0x00, 0x24 }, received[12..16]);
        Assert.Equal(IPAddress.IPv6Loopback, new IPAddress(received[16..32]));
        Assert.Equal(IPAddress.IPv6Loopback, new IPAddress(received[32..48]));
        Assert.Equal(port, BinaryPrimitives.ReadUInt16BigEndian(received.AsSpan(48)));
        Assert.Equal(proxy.Port, BinaryPrimitives.ReadUInt16BigEndian(received.AsSpan(50)));
        Assert.Equal("hello"u8.ToArray(), received[52..]);
    }

    private static readonly byte[] Signature = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A];

    private static async Task<byte[]> ReceiveBytesAsync(Socket socket, int count)
        => System.Text.Encoding.Latin1.GetBytes(await TcpSockets.ReceiveAsync(socket, count));
}
