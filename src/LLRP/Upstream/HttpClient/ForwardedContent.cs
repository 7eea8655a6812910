using System.Net;
using LLRP.ClientSide;
using LLRP.Http1;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Request content that streams the client's body to HttpClient. Over HTTP/1.1 HttpClient sends it while
/// <c>SendAsync</c> runs and waits for it before returning a response; only on failure (or with <c>Expect:
/// 100-continue</c>) can it still be running afterwards. Over HTTP/2 it goes on beside the response (full duplex). Once
/// its body is no longer wanted, <see cref="StopAsync"/> makes sure it no longer touches the client input.
/// Never buffers the body; its length is what <see cref="HttpContent.Headers"/> says (none: sent chunked).
/// </summary>
internal abstract class ForwardedContent(ClientRequestBody body) : HttpContent
{
    private readonly Lock _gate = new();
    private bool _running;
    private bool _stopped;
    private TaskCompletionSource? _exited;

    /// <summary>The client's body, which this content (directly or through a stream) reads.</summary>
    protected ClientRequestBody Body { get; } = body;

    /// <summary>Makes the content ready to be sent again, as a new body.</summary>
    public void Reset()
    {
        Headers.Clear();
        _stopped = false;
        _exited = null;
    }

    /// <summary>Prevents the body from being read from now on and waits until a read in progress has ended.</summary>
    public Task StopAsync()
    {
        lock (_gate)
        {
            _stopped = true;
            if (!_running)
            {
                return Task.CompletedTask;
            }

            _exited ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        }

        Body.CancelPendingRead();
        return _exited.Task;
    }

    protected abstract Task CopyBodyAsync(Stream destination, CancellationToken cancellationToken);

    /// <summary>
    /// Awaits a read from the client that did not complete at once, flushing meanwhile what HttpClient holds (the request
    /// head, earlier pieces), so the destination sees them while the client is slow. Should the flush fail, the read is
    /// cancelled and awaited before the failure propagates, so nothing is left reading the client input.
    /// </summary>
    protected async ValueTask<T> FlushWhileReadingAsync<T>(Stream destination, ValueTask<T> read, CancellationToken cancellationToken)
    {
        try
        {
            await destination.FlushAsync(cancellationToken);
        }
        catch
        {
            Body.CancelPendingRead();
            await ObserveAsync(read);
            throw;
        }

        return await read;
    }

    protected sealed override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        lock (_gate)
        {
            if (_stopped)
            {
                throw new OperationCanceledException("The request body is no longer forwarded.");
            }

            _running = true;
        }

        try
        {
            await CopyBodyAsync(stream, cancellationToken);
        }
        finally
        {
            TaskCompletionSource? exited;
            lock (_gate)
            {
                _running = false;
                exited = _exited;
            }

            exited?.TrySetResult();
        }
    }

    protected sealed override Task SerializeToStreamAsync(Stream stream, TransportContext? context)
        => SerializeToStreamAsync(stream, context, CancellationToken.None);

    private static async ValueTask ObserveAsync<T>(ValueTask<T> read)
    {
        try
        {
            await read;
        }
        catch (Exception e) when (e is OperationCanceledException or IOException or HttpMessageException)
        {
            // The read was cancelled, or the client failed too; the flush's failure is the one to report.
        }
    }

    protected sealed override bool TryComputeLength(out long length)
    {
        length = 0;
        return false;
    }
}
