using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using LLRP.Tasks;

namespace LLRP.Tests.Tasks;

/// <summary>
/// The builder on the path the proxy runs: a method resumed inline by whatever completes what it awaits (a plain
/// <see cref="TaskCompletionSource{TResult}"/> here, a socket completion in the proxy), completing its caller inline in
/// turn, which gives its box back and takes it again while the old frame is still on the stack. Alone in its collection:
/// another test's collection (or <see cref="BoxPool.Trim"/>) would empty the caches these tests count on.
/// </summary>
[Collection(nameof(PooledValueTaskBuilderInlineTests))]
[CollectionDefinition(nameof(PooledValueTaskBuilderInlineTests), DisableParallelization = true)]
public sealed class PooledValueTaskBuilderInlineTests
{
    private const int Threads = 4;
    private const int IterationsPerThread = 25_000;

    private static readonly AsyncLocal<string?> Flowing = new();

    [ThreadStatic]
    private static bool t_completer;

    [Fact]
    public void Await_ResumedInlineOnOtherThreads_EveryResultRight_AndBoxesReused()
    {
        var boxes = new ConcurrentDictionary<object, int>();
        var gates = new BlockingCollection<TaskCompletionSource<int>>();
        var completers = Enumerable.Range(0, Threads).Select(_ => Worker.Start(() =>
        {
            t_completer = true;
            foreach (var gate in gates.GetConsumingEnumerable())
            {
                gate.SetResult((int)gate.Task.AsyncState! * 2);
            }
        })).ToArray();
        var wrong = new int[Threads];
        var resumedInline = new int[Threads];
        var loops = Enumerable.Range(0, Threads).Select(worker => Worker.Start(
            () => LoopAsync(worker, gates, boxes, wrong, resumedInline).AsTask().Wait())).ToArray();

        foreach (var loop in loops)
        {
            loop.Join();
        }

        gates.CompleteAdding();
        foreach (var completer in completers)
        {
            completer.Join();
        }

        Assert.Equal(new int[Threads], wrong);
        Assert.All(resumedInline, count => Assert.InRange(count, IterationsPerThread / 2, IterationsPerThread));
        Assert.Equal(Threads * IterationsPerThread, boxes.Values.Sum());
        Assert.InRange(boxes.Count, 1, Threads * IterationsPerThread / 100);
    }

    [Fact]
    public void GetResult_MethodReturnedOrThrew_NothingItHeldIsKeptAlive()
    {
        var (local, argument, error) = (default(WeakReference)!, default(WeakReference)!, default(WeakReference)!);
        WithoutSynchronizationContext(() => (local, argument, error) = RunAndForget());

        // One collection, before the finalizer of any trim runs: the boxes are still kept, and must hold neither.
        GC.Collect();

        Assert.False(local.IsAlive, "a local hoisted across an await outlived the method");
        Assert.False(argument.IsAlive, "an argument, held by the state machine, outlived the method");
        Assert.False(error.IsAlive, "an exception the method threw outlived its read");
    }

    [Fact]
    public void Await_ResumedInline_AsyncLocalChangesStayInTheirCall() => WithoutSynchronizationContext(() =>
    {
        for (var i = 0; i < 1000; i++)
        {
            Flowing.Value = $"caller {i}";
            var gate = new TaskCompletionSource<int>();
            var seen = ChangeFlowingAsync(i, gate.Task);
            Flowing.Value = "between calls";

            gate.SetResult(0);

            Assert.Equal("between calls", Flowing.Value);
            Assert.True(seen.IsCompleted);
            Assert.Equal(($"caller {i}", $"caller {i}"), seen.Result);
        }
    });

    [Fact]
    public void Return_MoreThanBothBoundsInFlight_KeepsTheThreadsBoundAndTheExchangesOnly()
    {
        var thread = Worker.Start(() => WithoutGen2(() =>
        {
            BoxPool.Trim();
            var inFlight = BoxPool.MaxPerThread + BoxPool.MaxShared + 50;
            var first = new ConcurrentDictionary<object, int>();
            RunAllAtOnce(inFlight, first);
            var second = new ConcurrentDictionary<object, int>();
            RunAllAtOnce(inFlight, second);

            Assert.Equal(BoxPool.MaxPerThread + BoxPool.MaxShared, second.Keys.Count(first.ContainsKey));
        }));

        thread.Join();
    }

    [Fact]
    public void Return_OnAnotherThreadWhoseCacheIsFull_StartingThreadTakesThoseBoxes()
    {
        WithoutGen2(() =>
        {
            BoxPool.Trim();
            const int passed = 20;
            var started = new ConcurrentDictionary<object, int>();
            (TaskCompletionSource<int>[] Gates, ValueTask<int>[] Sums) methods = ([], []);
            var starter = Worker.Start(() => methods = StartAll(BoxPool.MaxPerThread + passed, started));
            starter.Join();

            // The completing thread resumes every method inline and reads it: it keeps its bound, the rest goes on.
            var completer = Worker.Start(() => CompleteAll(methods.Gates, methods.Sums));
            completer.Join();

            var again = new ConcurrentDictionary<object, int>();
            var restarter = Worker.Start(() =>
            {
                var (gates, sums) = StartAll(passed, again);
                CompleteAll(gates, sums);
            });
            restarter.Join();

            Assert.Equal(passed, again.Keys.Count(started.ContainsKey));
        });
    }

    [Fact]
    public void Trim_BoxesKept_NextMethodGetsANewBox()
    {
        var thread = Worker.Start(() => WithoutGen2(() =>
        {
            var before = new ConcurrentDictionary<object, int>();
            RunAllAtOnce(4, before);
            RunAllAtOnce(4, before);
            Assert.Equal(4, before.Count);

            BoxPool.Trim();
            var after = new ConcurrentDictionary<object, int>();
            RunAllAtOnce(4, after);

            Assert.DoesNotContain(after.Keys, before.ContainsKey);
        }));

        thread.Join();
    }

    [Fact]
    public void Gen2Collection_BoxesKept_NextMethodGetsANewBox()
    {
        var thread = Worker.Start(() =>
        {
            var before = new ConcurrentDictionary<object, int>();
            RunAllAtOnce(4, before);

            // The watcher reaches gen2 after its first collections; from then on each gen2 collection empties the caches.
            for (var i = 0; i < 3; i++)
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }

            var after = new ConcurrentDictionary<object, int>();
            RunAllAtOnce(4, after);

            Assert.DoesNotContain(after.Keys, before.ContainsKey);
        });

        thread.Join();
    }

    [Fact]
    public void Return_PoolingOff_NoBoxReused()
    {
        var thread = Worker.Start(() =>
        {
            BoxPool.Enabled = false;
            try
            {
                var first = new ConcurrentDictionary<object, int>();
                RunAllAtOnce(4, first);
                var second = new ConcurrentDictionary<object, int>();
                RunAllAtOnce(4, second);

                Assert.DoesNotContain(second.Keys, first.ContainsKey);
            }
            finally
            {
                BoxPool.Enabled = true;
            }
        });

        thread.Join();
    }

    /// <summary>
    /// Runs <paramref name="body"/> where a completed task runs its continuations inline, as on the proxy's socket threads:
    /// with the test runner's context, <see cref="Task"/> would queue them instead.
    /// </summary>
    private static void WithoutSynchronizationContext(Action body)
    {
        var runner = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(null);
        try
        {
            body();
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(runner);
        }
    }

    /// <summary>
    /// Runs <paramref name="attempt"/> again (a few times) when a gen2 collection, which empties the caches, ran during it.
    /// The caches are emptied by a finalizer after the collection (<see cref="Gen2CollectionWatcher"/>): the finalizers of
    /// a collection before the attempt are waited for first, or its emptying could land inside the attempt unseen.
    /// </summary>
    private static void WithoutGen2(Action attempt)
    {
        for (var i = 0; ; i++)
        {
            GC.WaitForPendingFinalizers();
            var collections = GC.CollectionCount(2);
            try
            {
                attempt();
                return;
            }
            catch (Xunit.Sdk.XunitException) when (i < 4 && GC.CollectionCount(2) != collections)
            {
            }
        }
    }

    /// <summary>Starts <paramref name="count"/> methods that all suspend, then completes and reads them all, on this thread.</summary>
    private static void RunAllAtOnce(int count, ConcurrentDictionary<object, int> boxes)
    {
        var (gates, sums) = StartAll(count, boxes);
        CompleteAll(gates, sums);
    }

    /// <summary>Starts <paramref name="count"/> methods that all suspend, each until its gate is completed.</summary>
    private static (TaskCompletionSource<int>[] Gates, ValueTask<int>[] Sums) StartAll(int count, ConcurrentDictionary<object, int> boxes)
    {
        var gates = Enumerable.Range(0, count).Select(i => new TaskCompletionSource<int>(i)).ToArray();
        var sums = gates.Select(gate => AddAfterAsync(1, new BoxRecorder<int>(gate, boxes))).ToArray();
        return (gates, sums);
    }

    /// <summary>Completes every gate (each method resumes inline here) and reads every method's result, on this thread.</summary>
    private static void CompleteAll(TaskCompletionSource<int>[] gates, ValueTask<int>[] sums)
    {
        for (var i = 0; i < gates.Length; i++)
        {
            gates[i].SetResult(i);
        }

        for (var i = 0; i < gates.Length; i++)
        {
            Assert.Equal(i + 1, sums[i].GetAwaiter().GetResult());
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (WeakReference Local, WeakReference Argument, WeakReference Error) RunAndForget()
    {
        var held = new List<WeakReference>();
        var holdGate = new TaskCompletionSource<int>();
        var argument = new object();
        held.Add(new WeakReference(argument));
        var holding = HoldAcrossAwaitAsync(argument, holdGate.Task, held);
        holdGate.SetResult(0);
        Assert.Equal(1, holding.GetAwaiter().GetResult());

        var throwGate = new TaskCompletionSource<int>();
        var throwing = ThrowAfterAwaitAsync(throwGate.Task, held);
        throwGate.SetResult(0);
        Assert.Throws<InvalidOperationException>(() => throwing.GetAwaiter().GetResult());

        return (held[1], held[0], held[2]);
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private static async ValueTask<int> LoopAsync(
        int worker, BlockingCollection<TaskCompletionSource<int>> gates, ConcurrentDictionary<object, int> boxes,
        int[] wrong, int[] resumedInline)
    {
        for (var i = 0; i < IterationsPerThread; i++)
        {
            var sum = AddAfterAsync(worker, new BoxRecorder<int>(new TaskCompletionSource<int>(i), boxes, gates));
            if (await sum != worker + 2 * i)
            {
                wrong[worker]++;
            }

            if (t_completer)
            {
                resumedInline[worker]++;
            }
        }

        return 0;
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private static async ValueTask<int> AddAfterAsync(int a, BoxRecorder<int> gate) => a + await gate;

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private static async ValueTask<(string?, string?)> ChangeFlowingAsync(int call, Task<int> gate)
    {
        var before = Flowing.Value;
        await gate.ConfigureAwait(false);
        var after = Flowing.Value;
        Flowing.Value = $"inside call {call}";
        return (before, after);
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private static async ValueTask<int> HoldAcrossAwaitAsync(object argument, Task<int> gate, List<WeakReference> held)
    {
        var local = new object();
        held.Add(new WeakReference(local));
        await gate.ConfigureAwait(false);
        GC.KeepAlive(local);
        GC.KeepAlive(argument);
        return 1;
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private static async ValueTask<int> ThrowAfterAwaitAsync(Task<int> gate, List<WeakReference> held)
    {
        await gate.ConfigureAwait(false);
        var error = new InvalidOperationException("thrown after the await");
        held.Add(new WeakReference(error));
        throw error;
    }
}
