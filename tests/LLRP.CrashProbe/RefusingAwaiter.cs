using System.Runtime.CompilerServices;

/// <summary>An awaiter that is never complete and throws from <see cref="UnsafeOnCompleted"/> after keeping the continuation.</summary>
internal readonly struct RefusingAwaiter : ICriticalNotifyCompletion
{
    public static Action? Kept { get; private set; }

    public bool IsCompleted => false;

    public RefusingAwaiter GetAwaiter() => this;

    public void GetResult()
    {
    }

    public void OnCompleted(Action continuation) => UnsafeOnCompleted(continuation);

    public void UnsafeOnCompleted(Action continuation)
    {
        Kept = continuation;
        throw new InvalidOperationException("the awaiter refused the continuation");
    }
}
