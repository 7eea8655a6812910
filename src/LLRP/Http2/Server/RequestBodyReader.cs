using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using LLRP.Tasks;

namespace LLRP.Http2.Server;

/// <summary>
/// The request body as the application reads it: the stream's body pipe, telling the stream how many bytes each
/// <see cref="AdvanceTo(SequencePosition, SequencePosition)"/> consumed, so the client's window opens as the
/// application (the forwarder) takes the body, not as it arrives (RFC 9113 §6.9).
/// </summary>
internal sealed class RequestBodyReader(Http2Stream stream, PipeReader inner) : PipeReader
{
    private ReadOnlySequence<byte> _last;

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public override async ValueTask<ReadResult> ReadAsync(CancellationToken cancellationToken = default)
    {
        var result = await inner.ReadAsync(cancellationToken);
        _last = result.Buffer;
        return result;
    }

    public override bool TryRead(out ReadResult result)
    {
        if (!inner.TryRead(out result))
        {
            return false;
        }

        _last = result.Buffer;
        return true;
    }

    public override void AdvanceTo(SequencePosition consumed) => AdvanceTo(consumed, consumed);

    public override void AdvanceTo(SequencePosition consumed, SequencePosition examined)
    {
        var count = _last.Slice(_last.Start, consumed).Length;
        _last = default;
        inner.AdvanceTo(consumed, examined);
        stream.OnBodyConsumed(count);
    }

    public override void CancelPendingRead() => inner.CancelPendingRead();

    public override void Complete(Exception? exception = null) => inner.Complete(exception);
}
