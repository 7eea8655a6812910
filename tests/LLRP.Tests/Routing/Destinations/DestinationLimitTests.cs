using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Routing.Destinations;

namespace LLRP.Tests.Routing.Destinations;

/// <summary><c>limits.maxConnectionsPerDestination</c> and its queue, on one destination.</summary>
public sealed class DestinationLimitTests
{
    [Fact]
    public async Task Unlimited_CountsRequestsInFlight()
    {
        var destination = Destination(maxActive: 0, maxQueued: 0);

        Assert.Equal(ForwarderError.None, await destination.EnterAsync());
        Assert.Equal(ForwarderError.None, await destination.EnterAsync());
        Assert.Equal(2, destination.ActiveRequests);

        destination.Exit();
        Assert.Equal(1, destination.ActiveRequests);
    }

    [Fact]
    public async Task AtTheLimit_WithoutAQueue_RefusesAtOnce()
    {
        var destination = Destination(maxActive: 1, maxQueued: 0);

        Assert.Equal(ForwarderError.None, await destination.EnterAsync());
        Assert.Equal(ForwarderError.QueueFull, await destination.EnterAsync());
        Assert.Equal(1, destination.ActiveRequests);
    }

    [Fact]
    public async Task AWaitingRequest_TakesTheSlotGivenBack_InOrder()
    {
        var destination = Destination(maxActive: 1, maxQueued: 2, queueTimeout: TimeSpan.FromMinutes(5));
        await destination.EnterAsync();

        var first = destination.EnterAsync().AsTask();
        var second = destination.EnterAsync().AsTask();
        Assert.Equal(ForwarderError.QueueFull, await destination.EnterAsync());
        Assert.Equal(2, destination.Queued);
        Assert.False(first.IsCompleted);

        destination.Exit();
        Assert.Equal(ForwarderError.None, await first);
        Assert.False(second.IsCompleted);
        Assert.Equal(1, destination.ActiveRequests);
        Assert.Equal(1, destination.Queued);

        destination.Exit();
        Assert.Equal(ForwarderError.None, await second);
        destination.Exit();
        Assert.Equal(0, destination.ActiveRequests);
        Assert.Equal(0, destination.Queued);
    }

    [Fact]
    public async Task AWaitingRequest_PastTheQueueTimeout_IsRefused_AndLeavesTheQueue()
    {
        var destination = Destination(maxActive: 1, maxQueued: 1, queueTimeout: TimeSpan.FromMilliseconds(50));
        await destination.EnterAsync();

        Assert.Equal(ForwarderError.QueueTimeout, await destination.EnterAsync());
        Assert.Equal(0, destination.Queued);

        // The abandoned waiter is skipped: the slot given back is free again.
        destination.Exit();
        Assert.Equal(0, destination.ActiveRequests);
        Assert.Equal(ForwarderError.None, await destination.EnterAsync());
    }

    private static Destination Destination(int maxActive, int maxQueued, TimeSpan? queueTimeout = null) => new(
        new DestinationOptions(DestinationEndpoint.TryParse("http://a.test/")!, 1),
        "c",
        new DestinationHealth(5, 10_000, 1, 2),
        maxActive,
        maxQueued,
        queueTimeout ?? TimeSpan.FromSeconds(5));
}
