using System.IO.Pipelines;
using System.Net.Security;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// The transport of a connection to an <c>https</c> downstream: an authenticated <see cref="SslStream"/> behind the same
/// two pipes as <see cref="SocketPipeConnection"/>, so the raw client reads and writes plaintext exactly as over a plain
/// socket. One receive loop decrypts into the input pipe (a zero-byte read first, so an idle connection holds no
/// buffer of its own), one send loop encrypts what the output pipe holds; the end of the output sends TLS's close_notify.
/// </summary>
internal sealed class SslPipeConnection : ConnectionContext
{
    private readonly Socket _socket;
    private readonly SslStream _stream;
    private readonly Pipe _input;
    private readonly Pipe _output;
    private readonly Task _receiving;
    private readonly Task _sending;
    private ConnectionAbortedException? _abortReason;
    private int _disposed;

    /// <param name="socket">The connected socket, owned by <paramref name="stream"/> from now on.</param>
    /// <param name="stream">The TLS stream over <paramref name="socket"/>, its handshake completed.</param>
    /// <param name="inlineScheduling">Run pipe continuations on the thread that completed the read or write.</param>
    public SslPipeConnection(Socket socket, SslStream stream, bool inlineScheduling)
    {
        _socket = socket;
        _stream = stream;
        var scheduler = inlineScheduling ? PipeScheduler.Inline : PipeScheduler.ThreadPool;
        _input = new Pipe(SocketPipeConnection.PipeOptionsFor(scheduler, minimumSegmentSize: SocketPipeConnection.ReceiveSize));
        _output = new Pipe(SocketPipeConnection.PipeOptionsFor(scheduler, minimumSegmentSize: 4096));
        Transport = new TransportPipes(_input.Reader, _output.Writer);
        _receiving = ReceiveAsync();
        _sending = SendAsync();
    }

    public override IDuplexPipe Transport { get; set; }

    public override string ConnectionId { get; set; } = string.Empty;

    public override IFeatureCollection Features { get; } = new FeatureCollection();

    public override IDictionary<object, object?> Items { get; set; } = new Dictionary<object, object?>();

    /// <summary>Closes the socket at once, without close_notify; the pipes' readers and writers then see the abort.</summary>
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
        await _stream.DisposeAsync();
    }

    private async Task ReceiveAsync()
    {
        var writer = _input.Writer;
        Exception? error = null;
        try
        {
            while (true)
            {
                _ = await _stream.ReadAsync(Memory<byte>.Empty);
                var count = await _stream.ReadAsync(writer.GetMemory(SocketPipeConnection.ReceiveSize));
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
            error = e is IOException { InnerException: SocketException { SocketErrorCode: SocketError.ConnectionReset } }
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
                    await _stream.WriteAsync(segment);
                }

                reader.AdvanceTo(buffer.End);
                if (result.IsCompleted)
                {
                    break;
                }
            }

            await _stream.ShutdownAsync();
            _socket.Shutdown(SocketShutdown.Send);
        }
        catch (Exception e)
        {
            // Whatever ended the loop reaches the writer, as the connection's failure.
            error = e;
        }

        await reader.CompleteAsync(_abortReason ?? (error is null ? null : new ConnectionAbortedException(error.Message, error)));
    }
}
