using System.Buffers;
using System.IO.Pipelines;

namespace LLRP.Transport.Epoll;

/// <summary>
/// The input pipe's reader as a connection's user sees it: a receive that failed (a reset) reaches the reader only after
/// the bytes received before it. A pipe completed with an error throws it ahead of unread data, so the loop completes the
/// pipe without one and hands the error here (<see cref="FailAfterData"/>): the reader gets what arrived, not completed,
/// and the error once it has consumed all of it or examined all of it and reads again.
/// </summary>
internal sealed class ReceivingPipeReader(PipeReader inner) : PipeReader
{
    private volatile Exception? _failure;
    private SequencePosition _end;
    private bool _examinedToEnd;

    /// <summary>Has the reader see <paramref name="failure"/> after the bytes already in the pipe; set before the pipe's writer completes.</summary>
    public void FailAfterData(Exception failure) => _failure = failure;

    public override ValueTask<ReadResult> ReadAsync(CancellationToken cancellationToken = default)
    {
        var read = inner.ReadAsync(cancellationToken);
        return read.IsCompletedSuccessfully ? new ValueTask<ReadResult>(Deliver(read.Result)) : DeliverAsync(read);
    }

    public override bool TryRead(out ReadResult result)
    {
        if (!inner.TryRead(out result))
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
        inner.AdvanceTo(consumed, examined);
    }

    public override void CancelPendingRead() => inner.CancelPendingRead();

    public override void Complete(Exception? exception = null) => inner.Complete(exception);

    private async ValueTask<ReadResult> DeliverAsync(ValueTask<ReadResult> read) => Deliver(await read);

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
