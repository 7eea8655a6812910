using System.Buffers;
using System.IO.Pipelines;
using LLRP.Diagnostics;

namespace LLRP.Upstream.Yarp;

/// <summary>
/// The client's end of a tunnel as a read-write stream, for YARP, which relays a tunnel between two streams itself:
/// reads take what the client sent (the bytes after the upgrade request first), writes go to the client and are flushed
/// at once. Every byte touches the <see cref="TunnelActivity"/> the idle timeout reads, and is counted like the other
/// modes' tunnels. The client's end of stream cancels <c>clientEnded</c>. Disposing it ends the tunnel, not the client
/// connection, which the session closes.
/// </summary>
internal sealed class ClientTunnelStream : Stream
{
    private readonly IDuplexPipe _client;
    private readonly TunnelActivity _activity;
    private readonly ProxyMetrics _metrics;
    private readonly CancellationTokenSource _clientEnded;
    private int _disposed;

    public ClientTunnelStream(IDuplexPipe client, TunnelActivity activity, ProxyMetrics metrics, CancellationTokenSource clientEnded)
    {
        _client = client;
        _activity = activity;
        _metrics = metrics;
        _clientEnded = clientEnded;
        metrics.TunnelOpened();
        activity.Open();
    }

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
        var result = await _client.Input.ReadAsync(cancellationToken);
        var data = result.Buffer;
        var count = (int)Math.Min(data.Length, buffer.Length);
        data.Slice(0, count).CopyTo(buffer.Span);
        _client.Input.AdvanceTo(data.GetPosition(count));
        if (count > 0)
        {
            _activity.Touch();
            _metrics.BytesReceived(count);
        }
        else if (result.IsCanceled)
        {
            throw new OperationCanceledException("The read of the client's tunnel end was cancelled.");
        }
        else if (result.IsCompleted)
        {
            _clientEnded.Cancel();
        }

        return count;
    }

    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        _client.Output.Write(buffer.Span);
        _activity.Touch();
        _metrics.BytesSent(buffer.Length);
        if ((await _client.Output.FlushAsync(cancellationToken)).IsCompleted)
        {
            throw new IOException("The client closed the connection.");
        }
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        => ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        => WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override async Task FlushAsync(CancellationToken cancellationToken)
    {
        if ((await _client.Output.FlushAsync(cancellationToken)).IsCompleted)
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
            _activity.Close();
            _metrics.TunnelClosed();
        }

        base.Dispose(disposing);
    }
}
