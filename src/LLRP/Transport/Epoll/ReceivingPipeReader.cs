using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using System.Threading.Tasks.Sources;

namespace LLRP.Transport.Epoll;

/// <summary>
/// The input pipe's reader as a connection's user sees it: a receive that failed (a reset) reaches the reader only after
/// the bytes received before it. A pipe completed with an error throws it ahead of unread data, so the loop completes the
/// pipe without one and hands the error here (<see cref="FailAfterData"/>): the reader gets what arrived, not completed,
/// and the error once it has consumed all of it or examined all of it and reads again. A read that waits completes
/// through the reader itself (it is the read's <see cref="IValueTaskSource{TResult}"/>): waiting allocates nothing, and
/// an idle connection holds no pending read of its own.
/// </summary>
internal sealed class ReceivingPipeReader : PipeReader, IValueTaskSource<ReadResult>
{
    private readonly PipeReader _inner;
    private readonly Action _onInnerRead;
    private ManualResetValueTaskSourceCore<ReadResult> _pending;
    private ValueTaskAwaiter<ReadResult> _innerRead;
    private volatile Exception? _failure;
    private SequencePosition _end;
    private bool _examinedToEnd;

    public ReceivingPipeReader(PipeReader inner)
    {
        _inner = inner;
        _onInnerRead = OnInnerRead;
    }

    /// <summary>Has the reader see <paramref name="failure"/> after the bytes already in the pipe; set before the pipe's writer completes.</summary>
    public void FailAfterData(Exception failure) => _failure = failure;

    public override ValueTask<ReadResult> ReadAsync(CancellationToken cancellationToken = default)
    {
        var read = _inner.ReadAsync(cancellationToken);
        if (read.IsCompletedSuccessfully)
        {
            return new ValueTask<ReadResult>(Deliver(read.Result));
        }

        _pending.Reset();
        _innerRead = read.GetAwaiter();
        _innerRead.UnsafeOnCompleted(_onInnerRead);
        return new ValueTask<ReadResult>(this, _pending.Version);
    }

    public override bool TryRead(out ReadResult result)
    {
        if (!_inner.TryRead(out result))
        {
            return false;
        }

        result = Deliver(result);
        return true;
    }

    public override void AdvanceTo(SequencePosition consumed) => AdvanceTo(consumed, consumed);

    public override void AdvanceTo(SequencePosition consumed, SequencePosition examined)
    {
        _examinedToEnd = examined.Equals(_end);
        _inner.AdvanceTo(consumed, examined);
    }

    public override void CancelPendingRead() => _inner.CancelPendingRead();

    public override void Complete(Exception? exception = null) => _inner.Complete(exception);

    ReadResult IValueTaskSource<ReadResult>.GetResult(short token) => _pending.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<ReadResult>.GetStatus(short token) => _pending.GetStatus(token);

    void IValueTaskSource<ReadResult>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _pending.OnCompleted(continuation, state, token, flags);

    private void OnInnerRead()
    {
        ReadResult result;
        try
        {
            result = Deliver(_innerRead.GetResult());
        }
        catch (Exception e)
        {
            _innerRead = default;
            _pending.SetException(e);
            return;
        }

        _innerRead = default;
        _pending.SetResult(result);
    }

    private ReadResult Deliver(ReadResult result)
    {
        var nothingNew = _examinedToEnd && result.Buffer.End.Equals(_end);
        _end = result.Buffer.End;
        if (!result.IsCompleted || _failure is not { } failure)
        {
            return result;
        }

        if (result.Buffer.IsEmpty || nothingNew)
        {
            throw failure;
        }

        // Bytes that arrived before the failure: the reader takes them first, and reads again for the rest.
        return new ReadResult(result.Buffer, result.IsCanceled, isCompleted: false);
    }
}
