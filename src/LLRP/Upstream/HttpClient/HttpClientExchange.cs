using System.Buffers;
using System.Net;
using System.Runtime.CompilerServices;
using LLRP.ClientSide;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Tasks;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// The HttpClient end of one client connection, for every mode that sends with <see cref="HttpMessageInvoker"/>: the
/// invokers to use, the request message and content (reused per connection with <c>LLRP_HTTPCLIENT_REUSEREQUEST</c>:
/// <see cref="HttpMessageInvoker"/>, unlike <c>HttpClient</c>, does not refuse a message it has sent), and the response
/// headers timeout. A response body is copied to the client by <see cref="ResponseBodyCopy"/>.
/// </summary>
internal sealed class HttpClientExchange(InvokerSelector invokers, bool reuseRequest, TimeSpan responseHeadersTimeout) : IDisposable
{
    private InvokerSelector _invokers = invokers;
    private HttpRequestMessage? _reusedMessage;
    private ForwardedContent? _reusedContent;
    private readonly RestartableTimeout _timeout = new(responseHeadersTimeout);
    private ClusterOptions? _cluster;

    /// <summary>The batch's cluster: its response headers timeout, and the HTTP version its requests ask.</summary>
    public ClusterOptions Cluster
    {
        set
        {
            _cluster = value;
            _timeout.Duration = value.ResponseHeadersTimeout;
        }
    }

    /// <summary>
    /// An empty message to fill (the connection's reused one, its headers cleared, or a new one), asking the cluster's
    /// HTTP version with its policy; an upgrade request asks HTTP/1.1 exactly, since its <c>Upgrade</c> (RFC 9110 §7.8)
    /// has no meaning in HTTP/2 (RFC 9113 §8.2.2).
    /// </summary>
    public HttpRequestMessage NextMessage(bool upgrade)
    {
        var message = reuseRequest ? _reusedMessage : null;
        if (message is not null)
        {
            message.Headers.Clear();
            message.Content = null;
        }
        else
        {
            message = new HttpRequestMessage();
            if (reuseRequest)
            {
                _reusedMessage = message;
            }
        }

        (message.Version, message.VersionPolicy) = upgrade || _cluster is not { } cluster
            ? (HttpVersion.Version11, HttpVersionPolicy.RequestVersionExact)
            : (cluster.HttpVersion, cluster.VersionPolicy);
        return message;
    }

    /// <summary>The request content of the mode: the connection's reused one, emptied, or a new one from <paramref name="create"/>.</summary>
    public ForwardedContent Content(Func<ForwardedContent> create)
    {
        if (!reuseRequest)
        {
            return create();
        }

        var content = _reusedContent ??= create();
        content.Reset();
        return content;
    }

    /// <summary>
    /// Sends with the connection's next invoker; the response headers timeout runs until the response head is in. A
    /// failure is classified as raw mode's (and the body stopped): nothing is thrown.
    /// </summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public async ValueTask<SendResult> SendAsync(HttpRequestMessage message)
    {
        var timeout = _timeout.Start();
        try
        {
            return new SendResult(await _invokers.Next().SendAsync(message, timeout), ForwarderError.None);
        }
        catch (Exception e)
        {
            await StopBodyAsync(message);
            return new SendResult(null, UpstreamFailures.Classify(e));
        }
        finally
        {
            _timeout.Stop();
        }
    }

    /// <summary>
    /// Sends <paramref name="message"/> (<see cref="SendAsync"/>) and has <paramref name="forwarder"/> forward its
    /// response; the response is disposed afterwards unless it became a tunnel (whose stream it owns), and the message
    /// is released.
    /// </summary>
    /// <remarks>
    /// Over HTTP/1.1 HttpClient returns a response before the body has gone only when the destination answered without
    /// taking it: the forwarder stops the body first. HTTP/2 is full duplex (RFC 9113 §8.1): a response may begin while the
    /// body is still being sent (an echo, a bidirectional stream), so the body goes on while the response is forwarded,
    /// and is stopped only when the response ended (or failed) before it; the client connection then ends, its input not
    /// at a request boundary.
    /// </remarks>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public async ValueTask<ForwardResult> ExchangeAsync(HttpRequestMessage message, IResponseForwarder forwarder, ClientRequestBody? body)
    {
        try
        {
            var sent = await SendAsync(message);
            if (sent.Response is not { } response)
            {
                return ForwardResult.Failed(0, sent.Error, started: false);
            }

            var duplex = IsFullDuplex(response, body);
            var result = default(ForwardResult);
            try
            {
                result = await forwarder.ForwardResponseAsync(message, response, duplex ? null : body);
            }
            finally
            {
                if (duplex && !body!.IsCompleted)
                {
                    await StopBodyAsync(message);
                    result = result with { CloseClient = true };
                }

                if (result.Tunnel is null)
                {
                    response.Dispose();
                }
            }

            return result;
        }
        finally
        {
            Release(message);
        }
    }

    /// <summary>
    /// <paramref name="response"/> began while <paramref name="body"/> was still being sent, over HTTP/2, which is full
    /// duplex (RFC 9113 §8.1): the body goes on beside the response.
    /// </summary>
    public static bool IsFullDuplex(HttpResponseMessage response, ClientRequestBody? body)
        => body is { IsCompleted: false } && response.Version.Major >= 2;

    /// <summary>Releases a message that is not reused.</summary>
    private void Release(HttpRequestMessage message)
    {
        if (!ReferenceEquals(message, _reusedMessage))
        {
            message.Dispose();
        }
    }

    /// <summary>
    /// HttpClient returned without sending the whole body (<c>Expect: 100-continue</c> refused) or failed: makes sure the
    /// content no longer reads the client input, which is then not at a request boundary.
    /// </summary>
    public static Task StopBodyAsync(HttpRequestMessage message)
        => message.Content is ForwardedContent content ? content.StopAsync() : Task.CompletedTask;

    /// <summary>What reading a response body from HttpClient throws when the destination fails or its connection is torn down.</summary>
    public static bool IsResponseReadFailure(Exception e)
        => e is IOException or HttpRequestException or ObjectDisposedException or OperationCanceledException;

    public void Dispose()
    {
        _invokers.Dispose();
        _timeout.Dispose();
        _reusedMessage?.Dispose();
    }

    /// <summary>Waits for a read whose result is no longer wanted, so the buffer it fills can go back to the pool.</summary>
    public static async ValueTask ObserveAsync(ValueTask<int> read)
    {
        try
        {
            await read;
        }
        catch (Exception e) when (IsResponseReadFailure(e))
        {
            // The dispose tore the destination connection down; nothing more was wanted from it.
        }
    }
}
