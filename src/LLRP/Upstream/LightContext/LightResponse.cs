using System.IO.Pipelines;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using LLRP.Upstream.HttpClient;

namespace LLRP.Upstream.Context;

/// <summary>
/// <c>HttpResponse</c> in httpclient-httpcontext mode, playing the server's part: on start it writes the head from
/// <see cref="StatusCode"/>, <see cref="ReasonPhrase"/> and <see cref="Headers"/>, framed by the same rules as the
/// httpclient mode (<see cref="ResponseFraming"/>); body writes are framed and flushed one by one. One per connection.
/// </summary>
internal sealed partial class ContextResponse : IHttpResponseFeature, IHttpResponseBodyFeature
{
    private readonly PipeWriter _output;
    private readonly Func<ValueTask<bool>> _flush;
    private readonly ContextResponseBodyStream _stream;
    private PipeWriter? _writer;
    private List<(Func<object, Task> Callback, object State)>? _onStarting;
    private List<(Func<object, Task> Callback, object State)>? _onCompleted;
    private bool _isHead;
    private bool _isHttp10;
    private bool _completed;
    private ResponseFraming _framing;

    public ContextResponse(PipeWriter output, Func<ValueTask<bool>> flush)
    {
        _output = output;
        _flush = flush;
        _stream = new ContextResponseBodyStream(this);
        Body = _stream;
    }

    public int StatusCode { get; set; }

    public string? ReasonPhrase { get; set; }

    public IHeaderDictionary Headers { get; set; } = new FieldDictionary();

    public Stream Body { get; set; }

    public bool HasStarted { get; private set; }

    /// <summary>The client connection persists after this response as far as the request goes (set before the response starts).</summary>
    public bool Persistent { get; set; }

    /// <summary>The client connection ends after this response (known once it started).</summary>
    public bool Closes => _framing.Close;

    Stream IHttpResponseBodyFeature.Stream => _stream;

    public PipeWriter Writer => _writer ??= PipeWriter.Create(_stream, new StreamPipeWriterOptions(leaveOpen: true));

    /// <summary>Gets ready for the response to the request just parsed.</summary>
    public void Reset(bool isHead, bool isHttp10)
    {
        StatusCode = StatusCodes.Status200OK;
        ReasonPhrase = null;
        Headers.Clear();
        Body = _stream;
        HasStarted = false;
        Persistent = false;
        _isHead = isHead;
        _isHttp10 = isHttp10;
        _completed = false;
        _framing = default;
        _writer = null;
        _onStarting = null;
        _onCompleted = null;
    }

    public void OnStarting(Func<object, Task> callback, object state) => (_onStarting ??= []).Add((callback, state));

    public void OnCompleted(Func<object, Task> callback, object state) => (_onCompleted ??= []).Add((callback, state));

    /// <summary>Nothing to do: nothing is buffered, every write is flushed.</summary>
    public void DisableBuffering()
    {
    }

    public Task StartAsync(CancellationToken cancellationToken = default)
    {
        if (HasStarted)
        {
            return Task.CompletedTask;
        }

        if (_onStarting is null)
        {
            WriteHead();
            return Task.CompletedTask;
        }

        return StartAfterCallbacksAsync();
    }

    public Task SendFileAsync(string path, long offset, long? count, CancellationToken cancellationToken = default)
        => SendFileFallback.SendFileAsync(_stream, path, offset, count, cancellationToken);

    /// <summary>Starts the response if it has not, then ends its body (the last chunk) and runs the completion callbacks.</summary>
    public async Task CompleteAsync()
    {
        if (_completed)
        {
            return;
        }

        _completed = true;
        if (_writer is not null)
        {
            await _writer.CompleteAsync();
        }

        await StartAsync();
        _framing.WriteEnd(_output);
        if (_onCompleted is { } callbacks)
        {
            await RunAsync(callbacks);
        }
    }

    public async ValueTask WriteAsync(ReadOnlyMemory<byte> data, CancellationToken cancellationToken)
    {
        await StartAsync(cancellationToken);
        if (_framing.Body == Http1.BodyFraming.None || data.IsEmpty)
        {
            return;
        }

        _framing.WriteBody(_output, data.Span);
        if (!await _flush())
        {
            throw new IOException("The client closed the connection.");
        }
    }

    public async Task FlushAsync(CancellationToken cancellationToken)
    {
        await StartAsync(cancellationToken);
        if (!await _flush())
        {
            throw new IOException("The client closed the connection.");
        }
    }

    private async Task StartAfterCallbacksAsync()
    {
        var callbacks = _onStarting!;
        _onStarting = null;
        callbacks.Reverse();
        await RunAsync(callbacks);
        WriteHead();
    }

    private static async Task RunAsync(List<(Func<object, Task> Callback, object State)> callbacks)
    {
        foreach (var (callback, state) in callbacks)
        {
            await callback(state);
        }
    }
}
