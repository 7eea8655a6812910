using System.Buffers;
using System.IO.Pipelines;
using LLRP.ClientSide;
using LLRP.Http1;
using LLRP.Upstream.HttpClient;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.LightContext;

/// <summary>
/// <c>HttpResponse</c> of the light <c>HttpContext</c>, playing the server's part: its head (status, reason, fields) is
/// validated and re-emitted with raw mode's rules (<see cref="RenderedResponseHead"/>, <see cref="ClientResponseWriter"/>)
/// when the response starts (a <c>101</c> as the head of a tunnel); body writes are framed and flushed one by one, as
/// Kestrel's; the trailers end a chunked body (<see cref="ClientResponseWriter.WriteEnd(ReadOnlySpan{byte})"/>), the
/// trailers feature being offered only to a client that sent <c>TE: trailers</c> (see <see cref="LightHttpContext.Fill"/>).
/// One per client connection.
/// </summary>
internal sealed class LightResponse : IHttpResponseFeature, IHttpResponseBodyFeature, IHttpResponseTrailersFeature
{
    private readonly ClientResponseWriter _client;
    private readonly RenderedResponseHead _rendered = new();
    private readonly int _maxHeadSize;
    private readonly LightResponseBodyStream _stream;
    private PipeWriter? _writer;
    private List<(Func<object, Task> Callback, object State)>? _onStarting;
    private List<(Func<object, Task> Callback, object State)>? _onCompleted;
    private ResponseHead? _head;
    private bool _isHeadRequest;
    private bool _isHttp10;
    private bool _persistent;
    private ClientRequestBody? _body;
    private bool _completed;

    public LightResponse(ClientResponseWriter client, int maxHeadSize)
    {
        _client = client;
        _maxHeadSize = maxHeadSize;
        _stream = new LightResponseBodyStream(this);
        Body = _stream;
    }

    public int StatusCode { get; set; }

    public string? ReasonPhrase { get; set; }

    public IHeaderDictionary Headers { get; set; } = new FieldDictionary();

    public Stream Body { get; set; }

    public IHeaderDictionary Trailers { get; set; } = new FieldDictionary();

    public bool HasStarted { get; private set; }

    /// <summary>The client connection ends after this response (known once it started).</summary>
    public bool Closes => _client.Framing.Close;

    Stream IHttpResponseBodyFeature.Stream => _stream;

    public PipeWriter Writer => _writer ??= PipeWriter.Create(_stream, new StreamPipeWriterOptions(leaveOpen: true));

    /// <summary>The request's body when it is read as it comes, until <see cref="BodyGoesOnBeside"/>.</summary>
    public ClientRequestBody? RequestBody => _body;

    /// <summary>
    /// The request body goes on beside the response (HTTP/2, full duplex): the head says the connection persists, and
    /// whether it does is decided once the response has ended (<see cref="HttpClientExchange.ExchangeAsync"/>, and
    /// YARP's modes after YARP's forwarder returns).
    /// </summary>
    public void BodyGoesOnBeside() => _body = null;

    /// <summary>Gets ready for the response to the request just parsed.</summary>
    /// <param name="persistent">The request allows its connection to persist.</param>
    /// <param name="body">The request's body when it is read as it comes: the connection persists only if it was read to its end.</param>
    public void Reset(bool isHeadRequest, bool isHttp10, bool persistent, ClientRequestBody? body)
    {
        StatusCode = StatusCodes.Status200OK;
        ReasonPhrase = null;
        Headers.Clear();
        Trailers.Clear();
        Body = _stream;
        HasStarted = false;
        (_isHeadRequest, _isHttp10, _persistent, _body) = (isHeadRequest, isHttp10, persistent, body);
        _head = null;
        _completed = false;
        _writer = null;
        _onStarting = null;
        _onCompleted = null;
    }

    /// <summary>Validates the head as it stands; throws <see cref="HttpMessageException"/> for one raw mode would refuse.</summary>
    public ResponseHead PrepareHead()
    {
        _rendered.Begin(StatusCode, ReasonPhrase, isHttp10: false);
        foreach (var (name, values) in Headers)
        {
            _rendered.Add(name, values);
        }

        return _head = _rendered.Parse(_maxHeadSize);
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
        if (Trailers.Count > 0)
        {
            _client.WriteEnd(TrailerFields.Lines(Trailers).WrittenSpan);
        }
        else
        {
            _client.WriteEnd();
        }

        if (_onCompleted is { } callbacks)
        {
            await RunAsync(callbacks);
        }
    }

    public async ValueTask WriteAsync(ReadOnlyMemory<byte> data, CancellationToken cancellationToken)
    {
        await StartAsync(cancellationToken);
        if (_client.Framing.Body == BodyFraming.None || data.IsEmpty)
        {
            return;
        }

        _client.WriteBody(new ReadOnlySequence<byte>(data));
        if (!await _client.FlushAsync())
        {
            throw new IOException("The client closed the connection.");
        }
    }

    public async Task FlushAsync(CancellationToken cancellationToken)
    {
        await StartAsync(cancellationToken);
        if (!await _client.FlushAsync())
        {
            throw new IOException("The client closed the connection.");
        }
    }

    private void WriteHead()
    {
        if (_head is null)
        {
            PrepareHead();
        }

        HasStarted = true;
        if (_head!.StatusCode == StatusCodes.Status101SwitchingProtocols)
        {
            // Only a switch the forwarder checked (UpgradeProtocols.AcceptsSwitch) starts with a 101.
            _client.WriteSwitchingProtocols(_head);
            return;
        }

        _client.WriteHead(_head, _isHeadRequest, _isHttp10, _persistent && (_body is null || _body.IsCompleted));
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
