using System.Runtime.CompilerServices;
using LLRP.Tasks;

namespace LLRP.Tests.Tasks;

/// <summary>The builder of the request path's async methods: results, exceptions, execution context, reuse of its boxes.</summary>
public sealed class PooledValueTaskBuilderTests
{
    private static readonly AsyncLocal<string?> Flowing = new();

    [Fact]
    public async Task CompletesWithoutSuspending()
        => Assert.Equal(42, await AddAsync(40, 2, suspend: null));

    [Fact]
    public async Task CompletesAfterSuspending()
    {
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var sum = AddAsync(40, 2, gate.Task);
        Assert.False(sum.IsCompleted);

        gate.SetResult();

        Assert.Equal(42, await sum);
    }

    [Fact]
    public async Task ThrowsWhatTheMethodThrew_BeforeOrAfterSuspending()
    {
        var before = await Assert.ThrowsAsync<InvalidOperationException>(async () => await FailAsync(suspend: null));
        Assert.Equal("failed", before.Message);

        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var failing = FailAsync(gate.Task);
        gate.SetResult();
        var after = await Assert.ThrowsAsync<InvalidOperationException>(async () => await failing);
        Assert.Equal("failed", after.Message);
    }

    [Fact]
    public async Task UntypedMethods_CompleteAndThrowAlike()
    {
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var done = new List<string>();
        var pending = RecordAsync(done, "b", gate.Task);
        await RecordAsync(done, "a", suspend: null);
        gate.SetResult();
        await pending;

        Assert.Equal(["a", "b"], done);
        var failGate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var failing = RecordAsync(done, "fail", failGate.Task);
        failGate.SetResult();
        await Assert.ThrowsAsync<InvalidOperationException>(async () => await failing);
        await Assert.ThrowsAsync<InvalidOperationException>(async () => await RecordAsync(done, "fail", suspend: null));
    }

    [Fact]
    public async Task TheExecutionContextFlowsIn_AndChangesInsideStayInside()
    {
        Flowing.Value = "caller";
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var seen = ReadFlowingAsync(gate.Task);
        Flowing.Value = "changed after the call";
        gate.SetResult();

        Assert.Equal("caller", await seen);
        Assert.Equal("changed after the call", Flowing.Value);
    }

    [Fact]
    public async Task ManyMethodsInFlightAtOnce_EachGetsItsOwnResult_AndBoxesAreReused()
    {
        for (var round = 0; round < 3; round++)
        {
            var gates = Enumerable.Range(0, 1000).Select(_ => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).ToArray();
            var sums = gates.Select((gate, i) => AddAsync(i, round, gate.Task)).ToArray();
            foreach (var gate in gates.Reverse())
            {
                gate.SetResult();
            }

            for (var i = 0; i < sums.Length; i++)
            {
                Assert.Equal(i + round, await sums[i]);
            }
        }
    }

    [Fact]
    public async Task AResultIsReadOnce_ASecondReadIsRefused()
    {
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var sum = AddAsync(1, 1, gate.Task);
        gate.SetResult();
        Assert.Equal(2, await sum);

        // The box went back to its pool with a new token: the stale ValueTask cannot read another method's result,
        // and its refused read does not give the box back a second time (two methods would then share it).
        Assert.Throws<InvalidOperationException>(() => sum.GetAwaiter().GetResult());
        var gates = Enumerable.Range(0, 2).Select(_ => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).ToArray();
        var first = AddAsync(10, 0, gates[0].Task);
        var second = AddAsync(20, 0, gates[1].Task);
        gates[1].SetResult();
        gates[0].SetResult();
        Assert.Equal(10, await first);
        Assert.Equal(20, await second);
    }

    [Fact]
    public async Task AResultReadBeforeCompletion_IsRefused_AndTheMethodStillCompletes()
    {
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var sum = AddAsync(2, 3, gate.Task);

        Assert.Throws<InvalidOperationException>(() => sum.GetAwaiter().GetResult());

        gate.SetResult();
        Assert.Equal(5, await sum);
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private static async ValueTask<int> AddAsync(int a, int b, Task? suspend)
    {
        if (suspend is not null)
        {
            await suspend;
        }

        return a + b;
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private static async ValueTask<int> FailAsync(Task? suspend)
    {
        if (suspend is not null)
        {
            await suspend;
        }

        throw new InvalidOperationException("failed");
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder))]
    private static async ValueTask RecordAsync(List<string> done, string name, Task? suspend)
    {
        if (suspend is not null)
        {
            await suspend;
        }

        if (name == "fail")
        {
            throw new InvalidOperationException(name);
        }

        done.Add(name);
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private static async ValueTask<string?> ReadFlowingAsync(Task suspend)
    {
        await suspend;
        var seen = Flowing.Value;
        Flowing.Value = "set inside";
        return seen;
    }
}
