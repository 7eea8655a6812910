using System.IO.Pipelines;

namespace LLRP.Fuzz;

/// <summary>
/// A <see cref="PipeReader"/> that completes <see cref="Waiting"/> when its reader asks for bytes and none are left
/// unread: the server has taken in everything the client sent so far.
/// </summary>
internal sealed class WaitSignallingReader(PipeReader inner) : PipeReader
{
    private readonly TaskCompletionSource _waiting = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public Task Waiting => _waiting.Task;

    public override ValueTask<ReadResult> ReadAsync(CancellationToken cancellationToken = default)
    {
        var read = inner.ReadAsync(cancellationToken);
        if (!read.IsCompleted)
        {
            _waiting.TrySetResult();
        }

        return read;
    }

    public override bool TryRead(out ReadResult result) => inner.TryRead(out result);

    public override void AdvanceTo(SequencePosition consumed) => inner.AdvanceTo(consumed);

    public override void AdvanceTo(SequencePosition consumed, SequencePosition examined) => inner.AdvanceTo(consumed, examined);

    public override void CancelPendingRead() => inner.CancelPendingRead();

    public override void Complete(Exception? exception = null) => inner.Complete(exception);
}
