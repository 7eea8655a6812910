using System.Runtime.CompilerServices;

namespace LLRP.Tasks;

/// <summary>
/// The heap home of one suspended async method (its state machine, copied here at its first suspension) and the
/// awaitable its caller holds. Boxes are kept per thread and per method, up to <see cref="BoxPool.MaxPerThread"/>: about
/// one per request the thread has in flight, so that a busy proxy reuses them instead of allocating one per request
/// (the runtime's pooling builder keeps one per thread and one per core), and all dropped at each gen2 collection. A box
/// given back on a thread whose cache is full, and taken by a thread whose cache is empty, passes through the method's
/// <see cref="BoxExchange{TBox}"/>: for methods that start on one thread and end on another.
/// </summary>
internal sealed class PooledStateMachineBox<TResult, TStateMachine> : PooledBox<TResult>
    where TStateMachine : IAsyncStateMachine
{
    private static readonly ContextCallback MoveNextInContext = static box => ((PooledStateMachineBox<TResult, TStateMachine>)box!).StateMachine.MoveNext();

    private static readonly BoxExchange<PooledStateMachineBox<TResult, TStateMachine>> Exchange = new();

    [ThreadStatic]
    private static PooledStateMachineBox<TResult, TStateMachine>?[]? t_cache;

    [ThreadStatic]
    private static int t_cached;

    /// <summary>The method's state machine: a field, so that it runs in place.</summary>
    public TStateMachine StateMachine = default!;

    private PooledStateMachineBox() => MoveNextAction = MoveNext;

    /// <summary>The continuation given to awaiters: made once per box, never per await.</summary>
    public Action MoveNextAction { get; }

    /// <summary>The execution context captured at the last suspension, which the method resumes in; null when its flow is suppressed.</summary>
    public ExecutionContext? Context { get; set; }

    /// <summary>An idle box of this method kept on this thread, else one another thread gave back, else a new one.</summary>
    public static PooledStateMachineBox<TResult, TStateMachine> Rent()
    {
        var cache = t_cache;
        if (cache is not null && t_cached > 0)
        {
            var box = cache[--t_cached];
            if (box is not null)
            {
                cache[t_cached] = null;
                return box;
            }

            // The cache was emptied by BoxPool.Trim.
            t_cached = 0;
        }

        return Exchange.TryTake() ?? new PooledStateMachineBox<TResult, TStateMachine>();
    }

    protected override void Return()
    {
        StateMachine = default!;
        Context = null;
        if (!BoxPool.Enabled)
        {
            return;
        }

        var cache = t_cache ??= NewCache();
        if (t_cached < BoxPool.MaxPerThread)
        {
            cache[t_cached++] = this;
        }
        else
        {
            Exchange.TryAdd(this);
        }
    }

    private static PooledStateMachineBox<TResult, TStateMachine>?[] NewCache()
    {
        var cache = new PooledStateMachineBox<TResult, TStateMachine>?[BoxPool.MaxPerThread];
        BoxPool.Register(cache);
        return cache;
    }

    private void MoveNext()
    {
        var context = Context;
        if (context is null)
        {
            StateMachine.MoveNext();
        }
        else
        {
            ExecutionContext.Run(context, MoveNextInContext, this);
        }
    }
}
