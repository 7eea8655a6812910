using System.Buffers;
using System.IO.Pipelines;
using LLRP.Configuration;
using LLRP.Transport.Epoll;

namespace LLRP.Http2.Codec;

/// <summary>
/// The one output of an HTTP/2 connection: every stream and the read loop write whole frames into the connection's
/// <see cref="PipeWriter"/> under <see cref="Sync"/>, and ask for a flush; the flush is queued once and taken by the
/// thread pool (on an epoll event loop's thread: by that loop) after the writers of that moment are done, so the frames of many streams leave in one send. While the
/// transport pushes back (its flush is pending), <see cref="Drained"/> is what a stream's own flush waits for. The
/// connection's send window (RFC 9113 §6.9.1) lives here, guarded by the same lock as the bytes it limits. The same
/// for both ends of HTTP/2: LLRP's server towards its clients, LLRP's client towards its destinations.
/// </summary>
/// <typeparam name="TStream">The stream type that waits for the connection send window.</typeparam>
internal sealed class FrameOutput<TStream>(PipeWriter output) : IThreadPoolWorkItem
    where TStream : IWindowWaiter
{
    /// <summary>Guards the writer, the send windows, and every stream's state the read loop and the stream's own task share.</summary>
    public Lock Sync { get; } = new();

    private bool _dirty;
    private bool _flushing;
    private Task _flushLoop = Task.CompletedTask;
    private TaskCompletionSource? _drained;

    /// <summary>Where frames go; only under <see cref="Sync"/>, and never after <see cref="IsClosed"/>.</summary>
    public IBufferWriter<byte> Writer => output;

    /// <summary>The connection send window (RFC 9113 §6.9.1): what DATA of all streams may still carry. Under <see cref="Sync"/>.</summary>
    public long SendWindow { get; set; } = Http2Settings.MinWindowSize;

    /// <summary>The streams waiting for the connection send window to open. Under <see cref="Sync"/>.</summary>
    public List<TStream> WindowWaiters { get; } = [];

    /// <summary>
    /// Opens the connection send window by <paramref name="increment"/> (a WINDOW_UPDATE on stream 0, RFC 9113 §6.9.1)
    /// and wakes every stream waiting for it. Under <see cref="Sync"/>.
    /// </summary>
    public void OpenSendWindow(long increment)
    {
        SendWindow += increment;
        WakeWindowWaiters();
    }

    /// <summary>Wakes every stream waiting for the connection send window, and forgets them. Under <see cref="Sync"/>.</summary>
    public void WakeWindowWaiters()
    {
        foreach (var waiting in WindowWaiters)
        {
            waiting.WakeSender();
        }

        WindowWaiters.Clear();
    }

    /// <summary>No frame is written any more: the connection failed or is closing. Under <see cref="Sync"/>.</summary>
    public bool IsClosed { get; private set; }

    /// <summary>Completes when the transport has taken what was flushed; null when it is not pushing back. Under <see cref="Sync"/>.</summary>
    public Task? Drained => _drained?.Task;

    /// <summary>Asks for a flush of what was written; under <see cref="Sync"/>.</summary>
    /// <param name="afterQueuedWork">
    /// The flush waits behind the work already queued to the thread pool (the other streams a client's read started),
    /// whose frames then leave in the same send; else it runs as soon as the current work item ends.
    /// </param>
    public void ScheduleFlush(bool afterQueuedWork = false)
    {
        _dirty = true;
        if (!_flushing && !IsClosed)
        {
            _flushing = true;
            if (EventLoop.Current is { } loop)
            {
                // On an epoll event loop's thread: the flush runs on the loop after this iteration's events, whose streams'
                // frames then leave in the same send, and no thread is woken for it.
                loop.Post(static output => ((IThreadPoolWorkItem)output!).Execute(), this);
            }
            else
            {
                ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: !afterQueuedWork);
            }
        }
    }

    /// <summary>Stops all writing (under <see cref="Sync"/>); frames already written are flushed by <see cref="CompleteAsync"/>.</summary>
    public void Close()
    {
        IsClosed = true;
        _drained?.TrySetResult();
        _drained = null;
    }

    /// <summary>Flushes what is left and completes the writer; once every stream is done with it.</summary>
    public async Task CompleteAsync()
    {
        Task loop;
        lock (Sync)
        {
            IsClosed = true;
            loop = _flushLoop;
        }

        try
        {
            await loop;
            await output.FlushAsync();
        }
        catch (Exception e) when (e is IOException or InvalidOperationException or ObjectDisposedException)
        {
            // The client went away; nothing more can reach it.
        }

        await output.CompleteAsync();
    }

    void IThreadPoolWorkItem.Execute()
    {
        lock (Sync)
        {
            _flushLoop = FlushAsync();
        }
    }

    private async Task FlushAsync()
    {
        while (true)
        {
            ValueTask<FlushResult> flush;
            lock (Sync)
            {
                if (!_dirty)
                {
                    _flushing = false;
                    return;
                }

                _dirty = false;
                flush = output.FlushAsync();
                if (!flush.IsCompleted)
                {
                    _drained ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                }
            }

            bool ended;
            try
            {
                var result = await flush;
                ended = result.IsCompleted || result.IsCanceled;
            }
            catch (Exception e) when (e is IOException or InvalidOperationException or ObjectDisposedException)
            {
                ended = true;
            }

            lock (Sync)
            {
                _drained?.TrySetResult();
                _drained = null;
                if (ended)
                {
                    IsClosed = true;
                    _flushing = false;
                    return;
                }
            }
        }
    }
}
