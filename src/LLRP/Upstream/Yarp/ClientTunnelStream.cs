using System.Buffers;
using System.IO.Pipelines;

namespace LLRP.Upstream.Yarp;

/// <summary>
/// The client's end of a tunnel as a read-write stream, for YARP, which relays a tunnel between two streams itself:
/// reads take what the client sent (the bytes after the upgrade request first), writes go to the client and are flushed
/// at once. Every byte touches and is counted by the tunnel's <see cref="TunnelActivity"/>, opened before this stream.
/// The client's end of stream, once every byte before it was read, cancels <c>clientEnded</c>. Disposing the stream
/// closes the tunnel, not the client connection, which the session closes.
/// </summary>
internal sealed class ClientTunnelStream(IDuplexPipe client, TunnelActivity activity, CancellationTokenSource clientEnded) : Stream
{
    private int _disposed;

    public override bool CanRead => true;

    public override bool CanWrite => true;

    public override bool CanSeek => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        var result = await client.Input.ReadAsync(cancellationToken);
        var data = result.Buffer;
        if (data.IsEmpty || buffer.IsEmpty)
        {
            // A zero-byte read (YARP's wait for data) leaves what arrived for the next read.
            client.Input.AdvanceTo(data.Start);
            if (data.IsEmpty && result.IsCanceled)
            {
                throw new OperationCanceledException("The read of the client's tunnel end was cancelled.");
            }

            if (data.IsEmpty && result.IsCompleted)
            {
                clientEnded.Cancel();
            }

            return 0;
        }

        var count = (int)Math.Min(data.Length, buffer.Length);
        data.Slice(0, count).CopyTo(buffer.Span);
        client.Input.AdvanceTo(data.GetPosition(count));
        activity.Touch();
        activity.Count(count, toClient: false);
        return count;
    }

    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        client.Output.Write(buffer.Span);
        activity.Touch();
        activity.Count(buffer.Length, toClient: true);
        await FlushAsync(cancellationToken);
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        => ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        => WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override async Task FlushAsync(CancellationToken cancellationToken)
    {
        if ((await client.Output.FlushAsync(cancellationToken)).IsCompleted)
        {
            throw new IOException("The client closed the connection.");
        }
    }

    public override void Flush() => throw new NotSupportedException("The tunnel is asynchronous only.");

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException("The tunnel is asynchronous only.");

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException("The tunnel is asynchronous only.");

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing && Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            activity.Close();
        }

        base.Dispose(disposing);
    }
}
