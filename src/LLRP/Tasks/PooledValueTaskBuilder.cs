using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace LLRP.Tasks;

/// <summary>
/// <see cref="PooledValueTaskBuilder{TResult}"/> for async methods returning <see cref="ValueTask"/>
/// (<c>[AsyncMethodBuilder(typeof(PooledValueTaskBuilder))]</c>). The compiler calls these members; nothing else does.
/// </summary>
[StructLayout(LayoutKind.Auto)]
internal struct PooledValueTaskBuilder
{
    private PooledValueTaskBuilder<NoResult> _builder;

    public static PooledValueTaskBuilder Create() => default;

    public readonly ValueTask Task => _builder.UntypedTask;

    public readonly void Start<TStateMachine>(ref TStateMachine stateMachine)
        where TStateMachine : IAsyncStateMachine
        => _builder.Start(ref stateMachine);

    /// <summary>Part of the builder pattern; the box is made by the first suspension instead.</summary>
    public readonly void SetStateMachine(IAsyncStateMachine stateMachine)
    {
    }

    public void SetResult() => _builder.SetResult(default);

    public void SetException(Exception exception) => _builder.SetException(exception);

    public void AwaitOnCompleted<TAwaiter, TStateMachine>(ref TAwaiter awaiter, ref TStateMachine stateMachine)
        where TAwaiter : INotifyCompletion
        where TStateMachine : IAsyncStateMachine
        => _builder.AwaitOnCompleted(ref awaiter, ref stateMachine);

    public void AwaitUnsafeOnCompleted<TAwaiter, TStateMachine>(ref TAwaiter awaiter, ref TStateMachine stateMachine)
        where TAwaiter : ICriticalNotifyCompletion
        where TStateMachine : IAsyncStateMachine
        => _builder.AwaitUnsafeOnCompleted(ref awaiter, ref stateMachine);
}
