using System.IO.Pipelines;
using LLRP.Configuration;
using LLRP.Upstream.Sockets;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Tests.Upstream;

public sealed class UpstreamConnectionTests
{
    private static readonly DestinationEndpoint Downstream = DestinationEndpoint.TryParse("http://127.0.0.1:1")!;

    [Fact]
    public void IsIdleAndOpen_NothingArrived_True()
    {
        var (connection, _) = Connect();

        Assert.True(connection.IsIdleAndOpen());
    }

    [Fact]
    public async Task IsIdleAndOpen_BytesArrivedWhileIdle_False()
    {
        var (connection, downstream) = Connect();
        await downstream.Output.WriteAsync("HTTP/1.1 200 OK\r\n"u8.ToArray());

        Assert.False(connection.IsIdleAndOpen());
    }

    [Fact]
    public void IsIdleAndOpen_DownstreamClosed_False()
    {
        var (connection, downstream) = Connect();
        downstream.Output.Complete();

        Assert.False(connection.IsIdleAndOpen());
    }

    [Fact]
    public void IsIdleAndOpen_InputFailed_FalseInsteadOfThrowing()
    {
        var (connection, downstream) = Connect();
        downstream.Output.Complete(new ConnectionAbortedException("reset"));

        Assert.False(connection.IsIdleAndOpen());
    }

    /// <summary>
    /// An aborted connection whose transport has not yet failed its pipes (the socket transport completes them
    /// asynchronously) must not look reusable: a request written to it would be lost.
    /// </summary>
    [Fact]
    public void IsIdleAndOpen_AbortedBeforeThePipesReportIt_False()
    {
        var (connection, _) = Connect();

        connection.Abort();

        Assert.False(connection.IsIdleAndOpen());
    }

    private static (UpstreamConnection Connection, IDuplexPipe Downstream) Connect()
    {
        var pipes = new PipePair();
        return (new UpstreamConnection(new LazyAbortConnection(pipes.Proxy), Downstream), pipes.Downstream);
    }
}
