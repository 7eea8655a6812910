using System.Buffers;
using System.Runtime.InteropServices;
using System.Threading.Channels;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace LLRP.Diagnostics.AccessLogging;

/// <summary>
/// Writes the access log's lines off the request path: client sessions hand each formatted line to a bounded queue
/// (<see cref="TryWrite"/>), and this service writes them to the sink, flushing whenever the queue runs empty. A full
/// queue drops the line and counts it (<c>llrp.access_log.dropped</c>, and a warning at most once a minute), so a slow
/// sink never holds a request back. A file is appended to, and reopened on SIGHUP (<see cref="Reopen"/>) for rotation;
/// what is queued is written out when the proxy stops. The sink is opened when the writer is made, so that a file that
/// cannot be opened stops the start.
/// </summary>
/// <param name="target"><c>stdout</c>, <c>stderr</c>, or the full path of a file.</param>
/// <param name="bufferLines">Most lines waiting to be written.</param>
internal sealed class AccessLogWriter(string target, int bufferLines, ProxyMetrics metrics, ILogger logger) : BackgroundService
{
    private const long WarningIntervalMs = 60_000;

    private readonly Channel<ArraySegment<byte>> _lines = Channel.CreateBounded<ArraySegment<byte>>(
        new BoundedChannelOptions(bufferLines) { SingleReader = true, FullMode = BoundedChannelFullMode.Wait });

    private Stream _sink = Open(target);
    private PosixSignalRegistration? _hangUp;
    private volatile bool _reopen;
    private long _nextWarning;
    private long _dropped;

    /// <summary>Lines dropped because the queue was full, since the start.</summary>
    public long Dropped => Interlocked.Read(ref _dropped);

    private bool IsFile => target is not ("stdout" or "stderr");

    /// <summary>Queues a copy of <paramref name="line"/>; when the queue is full, drops it and counts it.</summary>
    public void TryWrite(ReadOnlySpan<byte> line)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(line.Length);
        line.CopyTo(buffer);
        if (!_lines.Writer.TryWrite(new ArraySegment<byte>(buffer, 0, line.Length)))
        {
            ArrayPool<byte>.Shared.Return(buffer);
            LineDropped();
        }
    }

    /// <summary>Closes the file and opens its path again before the next line (SIGHUP calls it, after a rotation renamed the file).</summary>
    public void Reopen()
    {
        _reopen = true;
        _lines.Writer.TryWrite(default);
    }

    public override Task StartAsync(CancellationToken cancellationToken)
    {
        if (IsFile)
        {
            _hangUp = PosixSignalRegistration.Create(PosixSignal.SIGHUP, context =>
            {
                context.Cancel = true;
                Reopen();
            });
        }

        return base.StartAsync(cancellationToken);
    }

    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        _hangUp?.Dispose();
        await base.StopAsync(cancellationToken);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var reader = _lines.Reader;
        try
        {
            while (await reader.WaitToReadAsync(stoppingToken))
            {
                WriteQueued(reader);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Stopping: the connections have drained; what they queued is written below.
        }

        _lines.Writer.TryComplete();
        WriteQueued(reader);
        await _sink.DisposeAsync();
    }

    /// <summary>Writes every queued line, then flushes once. A sink that fails loses its lines until it is reopened.</summary>
    private void WriteQueued(ChannelReader<ArraySegment<byte>> reader)
    {
        while (reader.TryRead(out var line))
        {
            if (_reopen)
            {
                _reopen = false;
                Reopened();
            }

            if (line.Array is { } buffer)
            {
                try
                {
                    _sink.Write(line);
                }
                catch (IOException e)
                {
                    Failed(e);
                }
                finally
                {
                    ArrayPool<byte>.Shared.Return(buffer);
                }
            }
        }

        try
        {
            _sink.Flush();
        }
        catch (IOException e)
        {
            Failed(e);
        }
    }

    private void Reopened()
    {
        try
        {
            _sink.Dispose();
            _sink = Open(target);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            Failed(e);
        }
    }

    /// <summary>The sink failed: its lines go nowhere until the next <see cref="Reopen"/>.</summary>
    private void Failed(Exception e)
    {
        var failed = _sink;
        _sink = Stream.Null;
        try
        {
            failed.Dispose();
        }
        catch (IOException)
        {
            // What it still buffered is lost with it.
        }

        ProxyLog.AccessLogFailed(logger, target, e.Message);
    }

    private static Stream Open(string target) => target switch
    {
        "stdout" => Console.OpenStandardOutput(),
        "stderr" => Console.OpenStandardError(),
        _ => new FileStream(target, FileMode.Append, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete, bufferSize: 64 * 1024),
    };

    private void LineDropped()
    {
        Interlocked.Increment(ref _dropped);
        metrics.AccessLogLineDropped();
        var now = Environment.TickCount64;
        var next = Volatile.Read(ref _nextWarning);
        if (now >= next && Interlocked.CompareExchange(ref _nextWarning, now + WarningIntervalMs, next) == next)
        {
            ProxyLog.AccessLogLinesDropped(logger, target, Dropped);
        }
    }
}
