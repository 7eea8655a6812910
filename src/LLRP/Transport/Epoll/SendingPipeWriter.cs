using System.IO.Pipelines;

namespace LLRP.Transport.Epoll;

/// <summary>
/// The output pipe's writer as a connection's user sees it: each flush (and the end) also schedules the connection's send
/// with its loop, so the loop learns of new output without keeping a read pending on the pipe.
/// </summary>
internal sealed class SendingPipeWriter(PipeWriter inner, EpollConnection connection) : PipeWriter
{
    public override bool CanGetUnflushedBytes => inner.CanGetUnflushedBytes;

    public override long UnflushedBytes => inner.UnflushedBytes;

    public override void Advance(int bytes) => inner.Advance(bytes);

    public override Memory<byte> GetMemory(int sizeHint = 0) => inner.GetMemory(sizeHint);

    public override Span<byte> GetSpan(int sizeHint = 0) => inner.GetSpan(sizeHint);

    public override void CancelPendingFlush() => inner.CancelPendingFlush();

    public override ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default)
    {
        var result = inner.FlushAsync(cancellationToken);
        connection.RequestSend();
        return result;
    }

    public override void Complete(Exception? exception = null)
    {
        inner.Complete(exception);
        connection.RequestSend();
    }
}
