using System.IO.Pipelines;
using System.Net;
using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Proxy;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// The client side the HttpClient modes share with raw mode, one per client connection. Per request, in order:
/// 1. read the next head with raw mode's parser, flushing the client output first when the client has sent nothing
///    more (so pipelined responses leave together); a bad head is answered as raw mode does and the connection closed;
///    the keep-alive and request-head timeouts and the graceful drain work as in raw mode (<see cref="ClientConnectionTracker"/>);
/// 2. <see cref="Prepare"/>: the mode builds its request while the head's bytes are valid; then the head is consumed
///    and the body, read by <see cref="Body"/>, is next in the client input;
/// 3. <see cref="ForwardAsync"/>: the mode sends it with HttpClient and answers. Requests are answered in order, one at a time.
/// </summary>
internal abstract partial class FrontEndConnection : ITrackedConnection
{
    private readonly PipeReader _clientInput;
    private readonly RequestLimits _limits;
    private readonly ProxyMetrics _metrics;
    private readonly ClientConnectionTracker _tracker;
    private InvokerSelector _invokers;
    private HttpRequestMessage? _reusedMessage;
    private ForwardedContent? _reusedContent;
    private CancellationTokenSource? _timer;
    private long _requestStart;
    private long _deadline = long.MaxValue;
    private volatile bool _deadlineExpired;
    private volatile bool _stopping;

    protected FrontEndConnection(ConnectionContext connection, DownstreamEndpoint downstream, HttpClientModeServices services)
    {
        Connection = connection;
        _clientInput = connection.Transport.Input;
        ClientOutput = connection.Transport.Output;
        Options = services.Options;
        _limits = RequestLimits.From(Options);
        _metrics = services.Metrics;
        _tracker = services.Tracker;
        Downstream = downstream;
        FailureLog = services.FailureLog;
        _invokers = services.Invokers.ForConnection();
        Body = new RequestBodyReader(_clientInput, ClientOutput, FlushClientAsync, Options);
        ClientAddress = AddressOf(connection.RemoteEndPoint);
    }

    public long Deadline => Volatile.Read(ref _deadline);

    protected ConnectionContext Connection { get; }

    protected PipeWriter ClientOutput { get; }

    protected ProxyOptions Options { get; }

    protected DownstreamEndpoint Downstream { get; }

    protected FailureLog FailureLog { get; }

    /// <summary>The head of the request being forwarded; its bytes are valid only during <see cref="Prepare"/>.</summary>
    protected RequestHead Request { get; } = new();

    protected RequestBodyReader Body { get; }

    /// <summary>The client's address as <c>X-Forwarded-For</c> gets it.</summary>
    protected string ClientAddress { get; }

    /// <summary>
    /// The client connection may carry another request after this one: the client asked to persist, its body was read to
    /// the end (the input is at the next head), and the host is not stopping. Known once <c>SendAsync</c> returned.
    /// </summary>
    protected bool Persists => Request.IsPersistent && Body.IsCompleted && !_stopping;

    public async Task RunAsync()
    {
        _metrics.ClientConnectionOpened();
        _tracker.Add(this);
        try
        {
            while (!_stopping && await ReadRequestAsync() && await ForwardAsync())
            {
            }

            await FlushClientAsync();
        }
        catch (Exception e) when (IsConnectionFailure(e))
        {
            // The client went away; there is nobody left to answer.
        }
        finally
        {
            _tracker.Remove(this);
            _invokers.Dispose();
            _timer?.Dispose();
            _reusedMessage?.Dispose();
            _metrics.ClientConnectionClosed();
        }
    }

    /// <summary>Called by the heartbeat: the client was idle, or sent a head too slowly (slowloris).</summary>
    public void OnDeadlineExpired()
    {
        if (Deadline != long.MaxValue)
        {
            _deadlineExpired = true;
            _clientInput.CancelPendingRead();
        }
    }

    /// <summary>Called on shutdown: an idle connection closes now, a busy one after its response.</summary>
    public void OnStopping()
    {
        _stopping = true;
        if (Deadline != long.MaxValue)
        {
            _clientInput.CancelPendingRead();
        }
    }

    /// <summary>Builds the mode's request from <see cref="Request"/>; false when the connection ends (an answer was written).</summary>
    protected abstract bool Prepare();

    /// <summary>Sends the request prepared last and answers it; false when the connection ends.</summary>
    protected abstract ValueTask<bool> ForwardAsync();

    /// <summary>The request content reading <see cref="Body"/>: a new one per request, or (reusing) one per connection, emptied for each request.</summary>
    protected ForwardedContent CreateContent()
    {
        if (!Options.ReuseHttpRequestMessage)
        {
            return NewContent();
        }

        var content = _reusedContent ??= NewContent();
        content.Reset();
        return content;
    }

    /// <summary>A new request content of the mode's kind, reading <see cref="Body"/>.</summary>
    protected abstract ForwardedContent NewContent();

    /// <summary>The response was forwarded to its end: counted, with the request body's bytes.</summary>
    protected void Completed()
    {
        _metrics.BytesReceived(Body.BytesConsumed);
        _metrics.RequestCompleted(_requestStart);
    }

    protected static bool IsConnectionFailure(Exception e)
        => e is IOException or ConnectionResetException or ConnectionAbortedException or ObjectDisposedException;

    /// <summary>Flushes the client output; false when the client is gone.</summary>
    protected async ValueTask<bool> FlushClientAsync()
    {
        if (ClientOutput.CanGetUnflushedBytes)
        {
            _metrics.BytesSent(ClientOutput.UnflushedBytes);
        }

        try
        {
            return !(await ClientOutput.FlushAsync()).IsCompleted;
        }
        catch (Exception e) when (IsConnectionFailure(e))
        {
            return false;
        }
    }

    private static string AddressOf(EndPoint? endPoint)
    {
        if (endPoint is not IPEndPoint ip)
        {
            return "unknown";
        }

        return (ip.Address.IsIPv4MappedToIPv6 ? ip.Address.MapToIPv4() : ip.Address).ToString();
    }
}
