using System.Net;
using System.Net.Sockets;
using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Routing.Destinations;
using LLRP.Tcp;
using Microsoft.Extensions.Logging.Abstractions;

namespace LLRP.Tests.Tcp;

/// <summary>
/// The upstream socket of a TCP route's relay: Nagle's algorithm off (RFC 896 holds a small segment back until the
/// previous one is acknowledged, and the peer's delayed ACK, RFC 1122 §4.2.3.2, would then hold the relayed bytes), and
/// of the destination address's own family (no dual-mode socket and its extra system calls on each connection).
/// </summary>
public sealed class TcpUpstreamConnectorTests
{
    [Theory]
    [InlineData("127.0.0.1", AddressFamily.InterNetwork)]
    [InlineData("::1", AddressFamily.InterNetworkV6)]
    public async Task Upstream_socket_has_NoDelay_and_the_address_family(string address, AddressFamily family)
    {
        var loopback = IPAddress.Parse(address);
        using var listener = new Socket(loopback.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(loopback, 0));
        listener.Listen();
        var port = ((IPEndPoint)listener.LocalEndPoint!).Port;
        var host = family == AddressFamily.InterNetworkV6 ? $"[{address}]" : address;
        var destination = new Destination(
            new DestinationOptions(DestinationEndpoint.TryParseTcp($"tcp://{host}:{port}")!, 1),
            "c",
            new DestinationHealth(5, 10_000, 1, 2),
            0,
            0,
            TimeSpan.FromSeconds(5));

        var (connection, error) = await new TcpUpstreamConnector(new FailureLog(NullLogger.Instance))
            .ConnectAsync(destination, TimeSpan.FromSeconds(10), ReadOnlyMemory<byte>.Empty);

        Assert.Equal(ForwarderError.None, error);
        using var upstream = connection!;
        using var accepted = await listener.AcceptAsync().WaitAsync(TimeSpan.FromSeconds(10));
        Assert.True(upstream.NoDelay);
        Assert.Equal(family, upstream.AddressFamily);
    }
}
