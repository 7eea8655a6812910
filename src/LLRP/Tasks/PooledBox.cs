using System.Threading.Tasks.Sources;

namespace LLRP.Tasks;

/// <summary>
/// What an awaiting caller sees of a suspended method of <see cref="PooledValueTaskBuilder{TResult}"/>: its result, once
/// set, read exactly once; reading it gives the box back to its pool (<see cref="Return"/>), so a
/// <see cref="ValueTask{TResult}"/> over it must be awaited once only, as every <see cref="ValueTask{TResult}"/>. A second
/// read, or one before completion, is refused without touching the box, which may already serve another method.
/// </summary>
internal abstract class PooledBox<TResult> : IValueTaskSource<TResult>, IValueTaskSource
{
    private ManualResetValueTaskSourceCore<TResult> _core;

    /// <summary>The token of the current use; a token of an earlier use fails <see cref="GetResult"/>.</summary>
    public short Version => _core.Version;

    public void SetResult(TResult result) => _core.SetResult(result);

    public void SetException(Exception error) => _core.SetException(error);

    public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _core.OnCompleted(continuation, state, token, flags);

    public TResult GetResult(short token)
    {
        if (token != _core.Version || _core.GetStatus(token) == ValueTaskSourceStatus.Pending)
        {
            // A misuse (read before the method completed, or read twice) must not give the box back while it is in use.
            throw new InvalidOperationException("A pooled ValueTask was read before it completed, or a second time.");
        }

        try
        {
            return _core.GetResult(token);
        }
        finally
        {
            _core.Reset();
            Return();
        }
    }

    void IValueTaskSource.GetResult(short token) => GetResult(token);

    /// <summary>Clears what the box holds and keeps it for the next method of its kind on this thread.</summary>
    protected abstract void Return();
}
