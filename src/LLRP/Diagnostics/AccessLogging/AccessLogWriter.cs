using System.Runtime.InteropServices;
using System.Threading.Channels;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace LLRP.Diagnostics.AccessLogging;

/// <summary>
/// Writes the access log's lines off the request path. Client sessions copy each formatted line into a buffer of bounded
/// size (<see cref="TryWrite"/>); every <see cref="FlushIntervalMs"/>, or as soon as the buffer is half full, this service
/// swaps the buffer for a second one and writes what it holds in one call, so that its wake-ups cost nothing per request.
/// A line that does not fit is dropped and counted (<c>llrp.access_log.dropped</c>, and a warning at most once a
/// minute), so a slow sink never holds a request back. A file is appended to, and reopened on SIGHUP
/// (<see cref="Reopen"/>) for rotation; what is buffered is written out when the proxy stops. The sink is opened when
/// the writer is made, so that a file that cannot be opened stops the start.
/// </summary>
/// <param name="target"><c>stdout</c>, <c>stderr</c>, or the full path of a file.</param>
/// <param name="bufferSize">Most bytes of lines waiting to be written.</param>
internal sealed class AccessLogWriter(string target, int bufferSize, ProxyMetrics metrics, ILogger logger) : BackgroundService
{
    /// <summary>How long a line may wait in the buffer before it is written (nginx's <c>flush=</c> of a buffered log).</summary>
    public const int FlushIntervalMs = 100;

    private const long WarningIntervalMs = 60_000;

    private readonly Lock _gate = new();
    private readonly Channel<bool> _doorbell = Channel.CreateBounded<bool>(
        new BoundedChannelOptions(1) { SingleReader = true, FullMode = BoundedChannelFullMode.DropWrite });

    private byte[] _filling = new byte[bufferSize];
    private byte[] _draining = new byte[bufferSize];
    private int _length;
    private bool _closed;
    private Stream _sink = Open(target);
    private PosixSignalRegistration? _hangUp;
    private Timer? _flushTimer;
    private volatile bool _reopen;
    private long _nextWarning;
    private long _dropped;

    private bool IsFile => target is not ("stdout" or "stderr");

    /// <summary>Copies <paramref name="line"/> into the buffer; when it does not fit, drops it and counts it.</summary>
    public void TryWrite(ReadOnlySpan<byte> line)
    {
        bool fits, halfFull = false;
        lock (_gate)
        {
            fits = !_closed && _length + line.Length <= _filling.Length;
            if (fits)
            {
                line.CopyTo(_filling.AsSpan(_length));
                var half = _filling.Length / 2;
                halfFull = _length < half && _length + line.Length >= half;
                _length += line.Length;
            }
            else
            {
                _dropped++;
            }
        }

        if (!fits)
        {
            LineDropped();
        }
        else if (halfFull)
        {
            _doorbell.Writer.TryWrite(true);
        }
    }

    /// <summary>Closes the file and opens its path again before the next write (SIGHUP calls it, after a rotation renamed the file).</summary>
    public void Reopen()
    {
        _reopen = true;
        _doorbell.Writer.TryWrite(true);
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

        _flushTimer = new Timer(static writer => ((AccessLogWriter)writer!)._doorbell.Writer.TryWrite(true), this, FlushIntervalMs, FlushIntervalMs);
        return base.StartAsync(cancellationToken);
    }

    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        _hangUp?.Dispose();
        if (_flushTimer is { } timer)
        {
            await timer.DisposeAsync();
        }

        await base.StopAsync(cancellationToken);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            while (true)
            {
                await _doorbell.Reader.ReadAsync(stoppingToken);
                WriteBuffered();
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Stopping: the connections have drained; what they buffered is written below.
        }

        lock (_gate)
        {
            _closed = true;
        }

        WriteBuffered();
        await _sink.DisposeAsync();
    }

    /// <summary>Takes the buffer's lines and writes them in one call; a sink that fails loses its lines until it is reopened.</summary>
    private void WriteBuffered()
    {
        if (_reopen)
        {
            _reopen = false;
            Reopened();
        }

        int length;
        lock (_gate)
        {
            (_filling, _draining) = (_draining, _filling);
            length = _length;
            _length = 0;
        }

        if (length == 0)
        {
            return;
        }

        try
        {
            _sink.Write(_draining, 0, length);
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
            // It held nothing unwritten: lines are written whole, unbuffered.
        }

        ProxyLog.AccessLogFailed(logger, target, e.Message);
    }

    /// <summary>Unbuffered: each call writes a whole buffer of lines.</summary>
    private static Stream Open(string target) => target switch
    {
        "stdout" => Console.OpenStandardOutput(),
        "stderr" => Console.OpenStandardError(),
        _ => new FileStream(target, FileMode.Append, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete, bufferSize: 0),
    };

    private void LineDropped()
    {
        metrics.AccessLogLineDropped();
        var now = Environment.TickCount64;
        var next = Volatile.Read(ref _nextWarning);
        if (now >= next && Interlocked.CompareExchange(ref _nextWarning, now + WarningIntervalMs, next) == next)
        {
            ProxyLog.AccessLogLinesDropped(logger, target, Interlocked.Read(ref _dropped));
        }
    }
}
