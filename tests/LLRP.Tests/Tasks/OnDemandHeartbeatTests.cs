using LLRP.Tasks;

namespace LLRP.Tests.Tasks;

/// <summary>The heartbeats: run on <see cref="HeartbeatThread"/>, never on a thread-pool worker, started on demand.</summary>
public sealed class OnDemandHeartbeatTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task Start_BeatsOnTheHeartbeatThread_NotOnTheThreadPool()
    {
        var beat = new TaskCompletionSource<(bool ThreadPool, string? Name)>(TaskCreationOptions.RunContinuationsAsynchronously);
        using var heartbeat = new OnDemandHeartbeat(
            static state => ((TaskCompletionSource<(bool, string?)>)state!).TrySetResult((Thread.CurrentThread.IsThreadPoolThread, Thread.CurrentThread.Name)),
            beat,
            TimeSpan.FromMilliseconds(10));

        heartbeat.Start();

        var (threadPool, name) = await beat.Task.WaitAsync(Bound);
        Assert.False(threadPool);
        Assert.Equal("LLRP heartbeat", name);
    }

    [Fact]
    public async Task Start_SeveralHeartbeats_EachBeatsAgainAndAgain()
    {
        var fast = new BeatCounter(3);
        var slow = new BeatCounter(2);
        using var first = new OnDemandHeartbeat(static state => ((BeatCounter)state!).Beat(), fast, TimeSpan.FromMilliseconds(10));
        using var second = new OnDemandHeartbeat(static state => ((BeatCounter)state!).Beat(), slow, TimeSpan.FromMilliseconds(30));

        first.Start();
        second.Start();

        await fast.Reached.WaitAsync(Bound);
        await slow.Reached.WaitAsync(Bound);
    }

    private sealed class BeatCounter(int wanted)
    {
        private readonly TaskCompletionSource _reached = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private int _count;

        public Task Reached => _reached.Task;

        public void Beat()
        {
            if (Interlocked.Increment(ref _count) >= wanted)
            {
                _reached.TrySetResult();
            }
        }
    }
}
