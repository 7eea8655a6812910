using System.Collections.Concurrent;
using System.Runtime.CompilerServices;

namespace LLRP.Tests.Tasks;

/// <summary>
/// Awaits a task without capturing a context, so that its continuation runs inline in whatever completes the task, and
/// counts the boxes that wait on it: the builder's continuation is its box's <c>MoveNext</c>, so its target is the box.
/// With <paramref name="handOff"/>, the gate goes there once the continuation is registered, for another thread to complete.
/// </summary>
internal readonly struct BoxRecorder<T>(
    TaskCompletionSource<T> gate, ConcurrentDictionary<object, int> boxes, BlockingCollection<TaskCompletionSource<T>>? handOff = null)
    : ICriticalNotifyCompletion
{
    private Task<T> Task => gate.Task;

    public bool IsCompleted => Task.IsCompleted;

    public BoxRecorder<T> GetAwaiter() => this;

    public T GetResult() => Task.GetAwaiter().GetResult();

    public void OnCompleted(Action continuation) => UnsafeOnCompleted(continuation);

    public void UnsafeOnCompleted(Action continuation)
    {
        boxes.AddOrUpdate(continuation.Target!, 1, static (_, uses) => uses + 1);
        Task.ConfigureAwait(false).GetAwaiter().UnsafeOnCompleted(continuation);
        handOff?.Add(gate);
    }
}
