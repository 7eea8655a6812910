using System.Buffers;
using System.IO.Pipelines;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// An upstream connection's transport: a socket behind two pipes, one receive loop and one send loop. Unlike Kestrel's
/// socket transport, whose receives are limited to its 4 KiB memory blocks, a receive here reads up to
/// <see cref="ReceiveSize"/> bytes at once, so a large body costs a sixteenth of the system calls. Nothing is held while
/// the connection is idle: each receive first waits for data with a zero-byte read, then rents its buffer.
/// </summary>
internal sealed class SocketPipeConnection : ConnectionContext
{
    /// <summary>Most bytes one receive reads: buffers are rented at this size, so the bytes of a read share one segment.</summary>
    internal const int ReceiveSize = 64 * 1024;

    private readonly Socket _socket;
    private readonly Pipe _input;
    private readonly Pipe _output;
    private readonly Task _receiving;
    private readonly Task _sending;
    private ConnectionAbortedException? _abortReason;
    private int _disposed;

    public SocketPipeConnection(Socket socket, bool inlineScheduling)
    {
        _socket = socket;
        var scheduler = inlineScheduling ? PipeScheduler.Inline : PipeScheduler.ThreadPool;
        _input = new Pipe(PipeOptionsFor(scheduler, minimumSegmentSize: ReceiveSize));
        _output = new Pipe(PipeOptionsFor(scheduler, minimumSegmentSize: 4096));
        Transport = new TransportPipes(_input.Reader, _output.Writer);
        _receiving = ReceiveAsync();
        _sending = SendAsync();
    }

    /// <summary>Either direction's pipe: 1 MiB may wait in it before the writer pauses, until half of that is read.</summary>
    internal static PipeOptions PipeOptionsFor(PipeScheduler scheduler, int minimumSegmentSize) => new(
        pool: MemoryPool<byte>.Shared,
        readerScheduler: scheduler,
        writerScheduler: scheduler,
        pauseWriterThreshold: 1024 * 1024,
        resumeWriterThreshold: 512 * 1024,
        minimumSegmentSize: minimumSegmentSize,
        useSynchronizationContext: false);

    public override IDuplexPipe Transport { get; set; }

    public override string ConnectionId { get; set; } = string.Empty;

    public override IFeatureCollection Features { get; } = new FeatureCollection();

    public override IDictionary<object, object?> Items { get; set; } = new Dictionary<object, object?>();

    /// <summary>Closes the socket at once; the pipes' readers and writers then see the abort.</summary>
    public override void Abort(ConnectionAbortedException abortReason)
    {
        _abortReason = abortReason;
        _output.Reader.CancelPendingRead();
        _socket.Dispose();
    }

    public override async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        _output.Reader.CancelPendingRead();
        await _sending;
        _socket.Dispose();
        await _receiving;
    }

    private async Task ReceiveAsync()
    {
        var writer = _input.Writer;
        Exception? error = null;
        try
        {
            while (true)
            {
                await _socket.ReceiveAsync(Memory<byte>.Empty, SocketFlags.None);
                var count = await _socket.ReceiveAsync(writer.GetMemory(ReceiveSize), SocketFlags.None);
                if (count == 0)
                {
                    break;
                }

                writer.Advance(count);
                if ((await writer.FlushAsync()).IsCompleted)
                {
                    break;
                }
            }
        }
        catch (Exception e)
        {
            // Whatever ended the loop reaches the reader, as the connection's failure.
            error = e is SocketException { SocketErrorCode: SocketError.ConnectionReset }
                ? new ConnectionResetException(e.Message, e)
                : new ConnectionAbortedException(e.Message, e);
        }

        await writer.CompleteAsync(_abortReason ?? error);
    }

    private async Task SendAsync()
    {
        var reader = _output.Reader;
        Exception? error = null;
        try
        {
            while (true)
            {
                var result = await reader.ReadAsync();
                if (result.IsCanceled)
                {
                    break;
                }

                var buffer = result.Buffer;
                foreach (var segment in buffer)
                {
                    await SendAllAsync(segment);
                }

                reader.AdvanceTo(buffer.End);
                if (result.IsCompleted)
                {
                    break;
                }
            }

            _socket.Shutdown(SocketShutdown.Send);
        }
        catch (Exception e)
        {
            // Whatever ended the loop reaches the writer, as the connection's failure.
            error = e;
        }

        await reader.CompleteAsync(_abortReason ?? (error is null ? null : new ConnectionAbortedException(error.Message, error)));
    }

    private async ValueTask SendAllAsync(ReadOnlyMemory<byte> data)
    {
        while (!data.IsEmpty)
        {
            data = data[await _socket.SendAsync(data, SocketFlags.None)..];
        }
    }
}
