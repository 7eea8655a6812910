using System.Buffers;
using System.IO.Pipelines;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using LLRP.Tasks;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// An upstream connection's transport: a socket (or a stream over it) behind two pipes, one receive loop and one send
/// loop. Unlike Kestrel's socket transport, whose receives are limited to its 4 KiB memory blocks, a receive here reads
/// up to <see cref="ReceiveSize"/> bytes at once, so a large body costs a sixteenth of the system calls. Nothing is held
/// while the connection is idle: each receive first waits for data, then rents its buffer. The end of the output ends
/// what is sent (a half-close); an abort closes the socket at once. A subclass says how bytes are received and sent,
/// and calls <see cref="Start"/> once it is ready.
/// </summary>
internal abstract class PipeConnection : ConnectionContext
{
    /// <summary>Most bytes one receive reads: buffers are rented at this size, so the bytes of a read share one segment.</summary>
    private const int ReceiveSize = 64 * 1024;

    private readonly Pipe _input;
    private readonly Pipe _output;
    private Task _receiving = Task.CompletedTask;
    private Task _sending = Task.CompletedTask;
    private ConnectionAbortedException? _abortReason;
    private int _disposed;

    protected PipeConnection(Socket socket, bool inlineScheduling)
    {
        Socket = socket;
        var scheduler = inlineScheduling ? PipeScheduler.Inline : PipeScheduler.ThreadPool;
        _input = new Pipe(PipeOptionsFor(scheduler, minimumSegmentSize: ReceiveSize));
        _output = new Pipe(PipeOptionsFor(scheduler, minimumSegmentSize: 4096));
        Transport = new TransportPipes(_input.Reader, _output.Writer);
    }

    public override IDuplexPipe Transport { get; set; }

    public override string ConnectionId { get; set; } = string.Empty;

    public override IFeatureCollection Features { get; } = new FeatureCollection();

    public override IDictionary<object, object?> Items { get; set; } = new Dictionary<object, object?>();

    protected Socket Socket { get; }

    /// <summary>Closes the socket at once; the pipes' readers and writers then see the abort.</summary>
    public override void Abort(ConnectionAbortedException abortReason)
    {
        _abortReason = abortReason;
        _output.Reader.CancelPendingRead();
        Socket.Dispose();
    }

    public override async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        _output.Reader.CancelPendingRead();
        await _sending;
        Socket.Dispose();
        await _receiving;
        await ReleaseAsync();
    }

    /// <summary>Starts the receive and send loops.</summary>
    protected void Start()
    {
        _receiving = ReceiveLoopAsync();
        _sending = SendLoopAsync();
    }

    /// <summary>
    /// Waits until bytes can be received, without a buffer (a zero-byte read, so an idle connection holds none). The
    /// transport's own operation is returned as it is: a state machine here would be allocated on every wait that does
    /// not complete at once, that is once per response.
    /// </summary>
    protected abstract ValueTask<int> WaitForDataAsync();

    /// <summary>Receives into <paramref name="buffer"/>; 0 at the end of the stream.</summary>
    protected abstract ValueTask<int> ReceiveAsync(Memory<byte> buffer);

    /// <summary>Sends all of <paramref name="data"/>.</summary>
    protected abstract ValueTask SendAsync(ReadOnlyMemory<byte> data);

    /// <summary>Sends all of a buffer of several segments; one after the other unless the transport does better.</summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder))]
    protected virtual async ValueTask SendAsync(ReadOnlySequence<byte> data)
    {
        foreach (var segment in data)
        {
            await SendAsync(segment);
        }
    }

    /// <summary>Ends what is sent, the receive side staying open.</summary>
    protected abstract ValueTask ShutdownSendAsync();

    /// <summary>Releases what the subclass holds over the socket, after both loops ended.</summary>
    protected virtual ValueTask ReleaseAsync() => default;

    /// <summary>Either direction's pipe: 1 MiB may wait in it before the writer pauses, until half of that is read.</summary>
    private static PipeOptions PipeOptionsFor(PipeScheduler scheduler, int minimumSegmentSize) => new(
        pool: MemoryPool<byte>.Shared,
        readerScheduler: scheduler,
        writerScheduler: scheduler,
        pauseWriterThreshold: 1024 * 1024,
        resumeWriterThreshold: 512 * 1024,
        minimumSegmentSize: minimumSegmentSize,
        useSynchronizationContext: false);

    private static bool IsReset(Exception e)
        => e is SocketException { SocketErrorCode: SocketError.ConnectionReset }
            or IOException { InnerException: SocketException { SocketErrorCode: SocketError.ConnectionReset } };

    private async Task ReceiveLoopAsync()
    {
        var writer = _input.Writer;
        Exception? error = null;
        try
        {
            while (true)
            {
                await WaitForDataAsync();
                var count = await ReceiveAsync(writer.GetMemory(ReceiveSize));
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
            error = IsReset(e) ? new ConnectionResetException(e.Message, e) : new ConnectionAbortedException(e.Message, e);
        }

        await writer.CompleteAsync(_abortReason ?? error);
    }

    private async Task SendLoopAsync()
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
                if (buffer.IsSingleSegment)
                {
                    await SendAsync(buffer.First);
                }
                else
                {
                    await SendAsync(buffer);
                }

                reader.AdvanceTo(buffer.End);
                if (result.IsCompleted)
                {
                    break;
                }
            }

            await ShutdownSendAsync();
        }
        catch (Exception e)
        {
            // Whatever ended the loop reaches the writer, as the connection's failure.
            error = e;
        }

        await reader.CompleteAsync(_abortReason ?? (error is null ? null : new ConnectionAbortedException(error.Message, error)));
    }
}
