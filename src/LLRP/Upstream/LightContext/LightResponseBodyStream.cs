namespace LLRP.Upstream.LightContext;

/// <summary><c>HttpResponse.Body</c> in the light HttpContext: every write goes to the client, framed, and is flushed, as Kestrel's. Asynchronous only.</summary>
internal sealed class LightResponseBodyStream(LightResponse response) : Stream
{
    public override bool CanRead => false;

    public override bool CanSeek => false;

    public override bool CanWrite => true;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
        => response.WriteAsync(buffer, cancellationToken);

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        => WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override Task FlushAsync(CancellationToken cancellationToken) => response.FlushAsync(cancellationToken);

    public override void Write(byte[] buffer, int offset, int count)
        => throw new InvalidOperationException("Synchronous operations are disallowed. Call WriteAsync instead.");

    public override void Flush()
        => throw new InvalidOperationException("Synchronous operations are disallowed. Call FlushAsync instead.");

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();
}
