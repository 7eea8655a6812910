using System.Buffers;
using System.Net;
using System.Runtime.CompilerServices;
using LLRP.Diagnostics;
using LLRP.Proxy;
using LLRP.Upstream.Sockets;

namespace LLRP.Upstream.HttpClient;

internal abstract partial class FrontEndConnection
{
    /// <summary>
    /// An empty message to fill. With <c>LLRP_HTTPCLIENT_REUSEREQUEST</c> one message serves every request of the connection:
    /// <see cref="HttpMessageInvoker"/> (unlike <c>HttpClient</c>) does not refuse a message it has sent, so its headers are
    /// cleared and it is filled again; otherwise each request gets a new one, disposed after its response.
    /// </summary>
    protected HttpRequestMessage NextMessage()
    {
        if (!Options.ReuseHttpRequestMessage)
        {
            return new HttpRequestMessage { Version = HttpVersion.Version11, VersionPolicy = HttpVersionPolicy.RequestVersionExact };
        }

        if (_reusedMessage is { } message)
        {
            message.Headers.Clear();
            message.Content = null;
            return message;
        }

        return _reusedMessage = new HttpRequestMessage { Version = HttpVersion.Version11, VersionPolicy = HttpVersionPolicy.RequestVersionExact };
    }

    /// <summary>Sends with the connection's next invoker; the response headers timeout runs until the response head is in.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    protected async ValueTask<HttpResponseMessage> SendAsync(HttpRequestMessage message)
    {
        var timer = _timer ??= new CancellationTokenSource();
        timer.CancelAfter(Options.ResponseHeadersTimeout);
        try
        {
            return await _invokers.Next().SendAsync(message, timer.Token);
        }
        finally
        {
            if (!timer.TryReset())
            {
                timer.Dispose();
                _timer = null;
            }
        }
    }

    /// <summary>Releases a message that is not reused.</summary>
    protected void Release(HttpRequestMessage message)
    {
        if (!ReferenceEquals(message, _reusedMessage))
        {
            message.Dispose();
        }
    }

    /// <summary>
    /// HttpClient returned without sending the whole body (<c>Expect: 100-continue</c> refused) or failed: makes sure the
    /// content no longer reads the client input, which is then not at a request boundary (the connection must end).
    /// </summary>
    protected Task StopBodyAsync(HttpRequestMessage message)
        => message.Content is ForwardedContent content ? content.StopAsync() : Task.CompletedTask;

    /// <summary>
    /// <c>SendAsync</c> threw: stops the body, then answers as raw mode does: 400/413 for a bad body, nothing when the
    /// client went away, else 502/504 for the downstream's failure. The connection then ends.
    /// </summary>
    protected async ValueTask FailBeforeResponseAsync(HttpRequestMessage message, Exception exception)
    {
        await StopBodyAsync(message);
        switch (Body.Failure)
        {
            case RequestBodyFailure.Rejected:
                Reject(Body.Rejection);
                break;
            case RequestBodyFailure.None:
                Fail(UpstreamFailures.Classify(exception), exception);
                break;
        }
    }

    /// <summary>Reports a downstream failure once and answers it with raw mode's error response.</summary>
    protected void Fail(ForwarderError error, Exception? exception)
    {
        FailureLog.ForwardingFailed(Downstream.ToString(), error, exception);
        _metrics.ForwardingFailed(error);
        ClientOutput.Write(ErrorResponses.For(error));
    }

    /// <summary>The response failed after it started: reported once (unless the client left), then the client connection is aborted.</summary>
    protected void Abort(ForwarderError error)
    {
        if (error != ForwarderError.ClientAborted)
        {
            FailureLog.ForwardingFailed(Downstream.ToString(), error);
            _metrics.ForwardingFailed(error);
        }

        Connection.Abort();
    }
}
