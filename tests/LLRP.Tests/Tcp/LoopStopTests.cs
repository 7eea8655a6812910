using System.Net;
using System.Net.Sockets;
using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Routing.Destinations;
using LLRP.Tcp;
using LLRP.Tcp.Loop;
using LLRP.Tcp.Splice;
using LLRP.Transport.Epoll;
using Microsoft.Extensions.Logging.Abstractions;

namespace LLRP.Tests.Tcp;

/// <summary>
/// A relay loop that stops (the proxy's end) leaves nothing waiting for it: a connect pending on it, begun after it, or
/// connected and not yet relayed completes failed, and a relay that never began ends aborted. Each wait is bounded; only a
/// hang fails it.
/// </summary>
public sealed class LoopStopTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(10);

    /// <summary>
    /// A destination whose accept queue is full drops the SYN (Linux, <c>tcp_conn_request</c>): the connect stays pending
    /// on the loop until the loop stops.
    /// </summary>
    [Fact]
    public async Task Connect_pending_when_the_loop_stops_fails()
    {
        using var full = Listener(backlog: 0);
        using var queued = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await queued.ConnectAsync(full.LocalEndPoint!).WaitAsync(Bound);
        var loop = new EventLoop(0);

        var connect = Connector().ConnectAsync(loop, DestinationOf(full), TimeSpan.FromMinutes(10), ReadOnlyMemory<byte>.Empty).AsTask();
        loop.Dispose();

        var (connection, error) = await connect.WaitAsync(Bound);
        Assert.Null(connection);
        Assert.Equal(ForwarderError.ConnectFailed, error);
    }

    /// <summary>What is posted to a stopped loop never runs: a connect begun then (another destination tried) fails at once.</summary>
    [Fact]
    public async Task Connect_begun_after_the_loop_stopped_fails()
    {
        using var listener = Listener(backlog: 16);
        var loop = new EventLoop(0);
        loop.Dispose();

        var (connection, error) = await Connector().ConnectAsync(loop, DestinationOf(listener), TimeSpan.FromMinutes(10), ReadOnlyMemory<byte>.Empty).AsTask().WaitAsync(Bound);

        Assert.Null(connection);
        Assert.Equal(ForwarderError.ConnectFailed, error);
    }

    /// <summary>
    /// The loop stops between the upstream's connect and the relay's start, which is posted to it and never runs: the relay
    /// ends aborted, its upstream connection closed and the client's shut down.
    /// </summary>
    [Fact]
    public async Task Relay_not_begun_when_the_loop_stops_ends_aborted()
    {
        using var origin = Listener(backlog: 16);
        using var front = Listener(backlog: 16);
        using var client = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await client.ConnectAsync(front.LocalEndPoint!).WaitAsync(Bound);
        using var accepted = await front.AcceptAsync().WaitAsync(Bound);
        var loop = new EventLoop(0);
        var (upstream, error) = await Connector().ConnectAsync(loop, DestinationOf(origin), Bound, ReadOnlyMemory<byte>.Empty).AsTask().WaitAsync(Bound);
        Assert.Equal(ForwarderError.None, error);
        using var upstreamAccepted = await origin.AcceptAsync().WaitAsync(Bound);

        // The connect's continuation may run on the loop's own thread, which cannot join itself: stopped from the pool.
        await Task.Run(loop.Dispose).WaitAsync(Bound);

        var relay = new LoopRelay(upstream!, accepted, null, TimeSpan.FromMinutes(10), new SplicePipePool());
        await relay.RunAsync().WaitAsync(Bound);

        Assert.Equal(TcpRelayEnd.Aborted, relay.End);
        Assert.Equal(0, await upstreamAccepted.ReceiveAsync(new byte[1], SocketFlags.None).WaitAsync(Bound));
        Assert.Equal(0, await client.ReceiveAsync(new byte[1], SocketFlags.None).WaitAsync(Bound));
    }

    private static LoopConnector Connector() => new(new FailureLog(NullLogger.Instance));

    private static Socket Listener(int backlog)
    {
        var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(backlog);
        return listener;
    }

    private static Destination DestinationOf(Socket listener)
        => new(
            new DestinationOptions(DestinationEndpoint.TryParseTcp($"tcp://127.0.0.1:{((IPEndPoint)listener.LocalEndPoint!).Port}")!, 1),
            "c",
            new DestinationHealth(5, 10_000, 1, 2),
            0,
            0,
            TimeSpan.FromSeconds(5));
}
