using System.Buffers;
using System.Runtime.CompilerServices;
using LLRP.ClientSide;
using LLRP.Tasks;

namespace LLRP.Upstream.LightContext;

/// <summary><c>HttpRequest.Body</c> in httpclient-httpcontext mode: the decoded request body, copied out of the client input. Asynchronous only, as Kestrel's.</summary>
internal sealed class LightRequestBodyStream(ClientRequestBody body) : Stream
{
    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (buffer.IsEmpty)
        {
            // A zero-byte read (YARP issues one before renting its buffer) may complete at once; the next read waits.
            return 0;
        }

        var piece = await body.ReadAsync(buffer.Length, cancellationToken);
        var length = (int)piece.Length;
        piece.CopyTo(buffer.Span);
        body.Advance();
        return length;
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        => ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override int Read(byte[] buffer, int offset, int count)
        => throw new InvalidOperationException("Synchronous operations are disallowed. Call ReadAsync instead.");

    public override void Flush() => throw new NotSupportedException();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
