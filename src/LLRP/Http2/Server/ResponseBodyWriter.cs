using System.Buffers;
using System.IO.Pipelines;
using LLRP.Http2.Codec;
using LLRP.Upstream;

namespace LLRP.Http2.Server;

/// <summary>
/// The response body as the application writes it: bytes gather in the stream's response pipe, and each flush hands
/// them to the stream to be framed as DATA (<see cref="Http2Stream.SendAsync"/>), which returns once they went out; or a
/// whole body handed at once goes straight into frames (<see cref="Http2Stream.TryWriteWhole"/>).
/// </summary>
internal sealed class ResponseBodyWriter(Http2Stream stream, PipeWriter inner) : PipeWriter, IWholeBodyWriter
{
    public bool TryWriteWhole(in ReadOnlySequence<byte> body) => stream.TryWriteWhole(body);

    public override void Advance(int bytes) => inner.Advance(bytes);

    public override Memory<byte> GetMemory(int sizeHint = 0)
    {
        stream.MarkResponseDataUsed();
        return inner.GetMemory(sizeHint);
    }

    public override Span<byte> GetSpan(int sizeHint = 0)
    {
        stream.MarkResponseDataUsed();
        return inner.GetSpan(sizeHint);
    }

    public override ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default) => stream.SendAsync(end: false, cancellationToken);

    public override void CancelPendingFlush() => stream.CancelPendingSend();

    /// <summary>
    /// The application wrote its last byte: the stream ends when the front end returns. Completed with an exception, the
    /// response cannot end well: the stream is reset (RST_STREAM with INTERNAL_ERROR, RFC 9113 §8.1), as Kestrel's server does.
    /// </summary>
    public override void Complete(Exception? exception = null)
    {
        if (exception is not null)
        {
            stream.Reset(Http2ErrorCode.InternalError);
        }
    }

    public override bool CanGetUnflushedBytes => inner.CanGetUnflushedBytes;

    public override long UnflushedBytes => inner.UnflushedBytes;
}
