using LLRP.Upstream.Http2Client;

namespace LLRP.Tests.Upstream.Http2Client;

/// <summary>What a read loop wakes during a read runs on its thread once the read is handled (<see cref="ReadBatchScheduler"/>).</summary>
public sealed class ReadBatchSchedulerTests
{
    [Fact]
    public void WokenDuringRead_RunsAtEnd_InOrder_OnTheReadLoopThread()
    {
        var ran = new List<(int Order, int Thread)>();
        ReadBatchScheduler.Begin();
        ReadBatchScheduler.Instance.Schedule(_ => ran.Add((1, Environment.CurrentManagedThreadId)), null);
        ReadBatchScheduler.Instance.Schedule(_ => ran.Add((2, Environment.CurrentManagedThreadId)), null);
        Assert.Empty(ran);

        ReadBatchScheduler.End();

        var thread = Environment.CurrentManagedThreadId;
        Assert.Equal([(1, thread), (2, thread)], ran);
    }

    [Fact]
    public async Task OneThrows_TheRestGoToTheThreadPool_NotStranded()
    {
        var second = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        ReadBatchScheduler.Begin();
        ReadBatchScheduler.Instance.Schedule(_ => throw new InvalidOperationException("first"), null);
        ReadBatchScheduler.Instance.Schedule(_ => second.SetResult(), null);

        Assert.Equal("first", Assert.Throws<InvalidOperationException>(ReadBatchScheduler.End).Message);

        await second.Task.WaitAsync(TimeSpan.FromSeconds(30));
    }

    [Fact]
    public async Task OutsideARead_GoesToTheThreadPool()
    {
        var ran = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        ReadBatchScheduler.Instance.Schedule(_ => ran.SetResult(Thread.CurrentThread.IsThreadPoolThread), null);

        Assert.True(await ran.Task.WaitAsync(TimeSpan.FromSeconds(30)));
    }
}
