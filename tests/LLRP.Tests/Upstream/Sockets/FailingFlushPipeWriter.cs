using System.IO.Pipelines;

namespace LLRP.Tests.Upstream.Sockets;

/// <summary>A client output that takes writes and throws on every flush, with an exception that is not a connection failure.</summary>
internal sealed class FailingFlushPipeWriter : PipeWriter
{
    private readonly PipeWriter _inner = new Pipe().Writer;

    public override void Advance(int bytes) => _inner.Advance(bytes);

    public override Memory<byte> GetMemory(int sizeHint = 0) => _inner.GetMemory(sizeHint);

    public override Span<byte> GetSpan(int sizeHint = 0) => _inner.GetSpan(sizeHint);

    public override void CancelPendingFlush() => _inner.CancelPendingFlush();

    public override void Complete(Exception? exception = null) => _inner.Complete(exception);

    public override ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default)
        => throw new InvalidOperationException("the client output failed");
}
