using LLRP.Upstream.Sockets;

namespace LLRP.Tests.Upstream.Sockets;

public sealed class DestinationIdleStacksTests
{
    [Fact]
    public void Of_NothingReturnedForTheLoop_Null()
    {
        var stacks = new DestinationIdleStacks(capacity: 4);

        Assert.Null(stacks.Of(UpstreamConnection.NoLoop));
        Assert.Null(stacks.Of(0));
        Assert.Null(stacks.Of(7));
    }

    [Fact]
    public void For_SameLoop_SameStack_OtherLoops_TheirOwn()
    {
        var stacks = new DestinationIdleStacks(capacity: 4);

        var none = stacks.For(UpstreamConnection.NoLoop);
        var first = stacks.For(0);

        Assert.Same(none, stacks.For(UpstreamConnection.NoLoop));
        Assert.Same(first, stacks.For(0));
        Assert.Same(first, stacks.Of(0));
        Assert.NotSame(none, first);
    }

    [Fact]
    public void For_LoopPastTheSlots_GrowsAndKeepsTheStacksMade()
    {
        var stacks = new DestinationIdleStacks(capacity: 4);
        var none = stacks.For(UpstreamConnection.NoLoop);
        var first = stacks.For(0);

        var far = stacks.For(9);

        Assert.Same(none, stacks.Of(UpstreamConnection.NoLoop));
        Assert.Same(first, stacks.Of(0));
        Assert.Same(far, stacks.Of(9));
        Assert.Null(stacks.Of(5));
        Assert.Equal(3, stacks.Slots.Count(stack => stack is not null));
    }

    [Fact]
    public void For_ManyThreadsAtOnce_OneStackPerLoop()
    {
        var stacks = new DestinationIdleStacks(capacity: 4);
        var made = new IdleConnectionStack[8, 16];

        Parallel.For(0, 8, thread =>
        {
            for (var loop = 0; loop < 16; loop++)
            {
                made[thread, loop] = stacks.For(loop);
            }
        });

        for (var loop = 0; loop < 16; loop++)
        {
            for (var thread = 0; thread < 8; thread++)
            {
                Assert.Same(stacks.Of(loop), made[thread, loop]);
            }
        }
    }
}
