using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace LLRP.Tasks;

/// <summary>
/// The builder of async methods returning <see cref="ValueTask{TResult}"/> on the request path
/// (<c>[AsyncMethodBuilder(typeof(PooledValueTaskBuilder&lt;&gt;))]</c>): a method that completes without suspending
/// costs nothing; one that suspends lives in a box taken from its thread's pool (<see cref="PooledStateMachineBox{TResult, TStateMachine}"/>)
/// and given back when its caller reads the result. The compiler calls these members; nothing else does.
/// </summary>
[StructLayout(LayoutKind.Auto)]
internal struct PooledValueTaskBuilder<TResult>
{
    private PooledBox<TResult>? _box;
    private TResult _result;
    private Exception? _exception;

    public static PooledValueTaskBuilder<TResult> Create() => default;

    public readonly ValueTask<TResult> Task
        => _box is { } box ? new ValueTask<TResult>(box, box.Version)
            : _exception is { } exception ? ValueTask.FromException<TResult>(exception)
            : new ValueTask<TResult>(_result);

    /// <summary>The same method's result without its value, for <see cref="PooledValueTaskBuilder"/>.</summary>
    internal readonly ValueTask UntypedTask
        => _box is { } box ? new ValueTask(box, box.Version)
            : _exception is { } exception ? ValueTask.FromException(exception)
            : default;

    /// <summary>Runs the method up to its first suspension, with the caller's execution context restored afterwards.</summary>
    public readonly void Start<TStateMachine>(ref TStateMachine stateMachine)
        where TStateMachine : IAsyncStateMachine
        => default(AsyncValueTaskMethodBuilder<TResult>).Start(ref stateMachine);

    /// <summary>Part of the builder pattern; the box is made by the first suspension instead.</summary>
    public readonly void SetStateMachine(IAsyncStateMachine stateMachine)
    {
    }

    public void SetResult(TResult result)
    {
        if (_box is { } box)
        {
            // The continuation may run here and give the box (this builder's home) back: nothing of it is touched after.
            box.SetResult(result);
        }
        else
        {
            _result = result;
        }
    }

    /// <summary>
    /// The method failed. Before any suspension an <see cref="OperationCanceledException"/> still goes through a box, so
    /// that the method's <see cref="ValueTask{TResult}"/> is Canceled (and rethrows that exception), as the runtime's builders give.
    /// </summary>
    public void SetException(Exception exception)
    {
        if (_box is { } box)
        {
            box.SetException(exception);
        }
        else if (exception is OperationCanceledException)
        {
            var canceled = new UnpooledBox<TResult>();
            canceled.SetException(exception);
            _box = canceled;
        }
        else
        {
            _exception = exception;
        }
    }

    /// <summary>Suspends the method until <paramref name="awaiter"/> completes; an awaiter that throws here ends the process (<see cref="ThreadPoolRethrow"/>).</summary>
    public void AwaitOnCompleted<TAwaiter, TStateMachine>(ref TAwaiter awaiter, ref TStateMachine stateMachine)
        where TAwaiter : INotifyCompletion
        where TStateMachine : IAsyncStateMachine
    {
        var continuation = Suspend(ref stateMachine);
        try
        {
            awaiter.OnCompleted(continuation);
        }
        catch (Exception e)
        {
            ThreadPoolRethrow.Queue(e);
        }
    }

    /// <summary>As <see cref="AwaitOnCompleted"/>, for awaiters that do not flow the execution context themselves.</summary>
    public void AwaitUnsafeOnCompleted<TAwaiter, TStateMachine>(ref TAwaiter awaiter, ref TStateMachine stateMachine)
        where TAwaiter : ICriticalNotifyCompletion
        where TStateMachine : IAsyncStateMachine
    {
        var continuation = Suspend(ref stateMachine);
        try
        {
            awaiter.UnsafeOnCompleted(continuation);
        }
        catch (Exception e)
        {
            ThreadPoolRethrow.Queue(e);
        }
    }

    /// <summary>
    /// The method suspends: at its first suspension it moves into a box (the builder learns its box before the state
    /// machine, builder included, is copied there); at every suspension the execution context is captured to resume in.
    /// </summary>
    private Action Suspend<TStateMachine>(ref TStateMachine stateMachine)
        where TStateMachine : IAsyncStateMachine
    {
        var context = ExecutionContext.Capture();
        if (_box is PooledStateMachineBox<TResult, TStateMachine> current)
        {
            current.Context = context;
            return current.MoveNextAction;
        }

        var box = PooledStateMachineBox<TResult, TStateMachine>.Rent();
        _box = box;
        box.StateMachine = stateMachine;
        box.Context = context;
        return box.MoveNextAction;
    }
}
