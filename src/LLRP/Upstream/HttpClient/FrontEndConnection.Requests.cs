using System.Buffers;
using System.Diagnostics;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Proxy;

namespace LLRP.Upstream.HttpClient;

internal abstract partial class FrontEndConnection
{
    /// <summary>Reads and prepares the next request, its head consumed from the client input; false when the connection ends.</summary>
    private async ValueTask<bool> ReadRequestAsync()
    {
        var headDeadline = long.MaxValue;
        while (true)
        {
            Volatile.Write(ref _deadline, headDeadline != long.MaxValue ? headDeadline : Environment.TickCount64 + (long)Options.KeepAliveTimeout.TotalMilliseconds);
            var read = _clientInput.ReadAsync();
            if (!read.IsCompleted && !await FlushClientAsync())
            {
                return false;
            }

            var result = await read;
            var buffer = result.Buffer;
            if (result.IsCanceled)
            {
                if (_deadlineExpired && !buffer.IsEmpty)
                {
                    ClientOutput.Write(ErrorResponses.RequestTimeout);
                }

                _clientInput.AdvanceTo(buffer.Start);
                return false;
            }

            Volatile.Write(ref _deadline, long.MaxValue);
            try
            {
                if (RequestHeadParser.TryParse(buffer, Request, _limits, out var headLength))
                {
                    _requestStart = Stopwatch.GetTimestamp();
                    var forward = CheckAndPrepare();
                    _clientInput.AdvanceTo(buffer.GetPosition(headLength));
                    _metrics.BytesReceived(headLength);
                    return forward;
                }
            }
            catch (HttpMessageException e)
            {
                _clientInput.AdvanceTo(buffer.Start);
                Reject(e.Reason);
                return false;
            }

            _clientInput.AdvanceTo(buffer.Start, buffer.End);
            if (result.IsCompleted)
            {
                return false;
            }

            if (!buffer.IsEmpty && headDeadline == long.MaxValue)
            {
                headDeadline = Environment.TickCount64 + (long)Options.RequestHeadersTimeout.TotalMilliseconds;
            }
        }
    }

    /// <summary>Applies what the parser leaves to the forwarder (body size, targets HttpClient cannot send), then lets the mode prepare.</summary>
    private bool CheckAndPrepare()
    {
        if (Options.MaxRequestBodySize > 0 && Request.Framing == BodyFraming.ContentLength && Request.ContentLength > Options.MaxRequestBodySize)
        {
            HttpMessageException.Throw(RejectionReason.BodyTooLarge);
        }

        if (HttpClientResponses.IsAsterisk(Request.Path))
        {
            ClientOutput.Write(HttpClientResponses.AsteriskTarget);
            return false;
        }

        Body.Reset(Request.Framing, Request.ContentLength, !Request.IsHttp10 && RequestMessageBuilder.ExpectsContinue(Request));
        return Prepare();
    }

    /// <summary>A malformed request or body: 400/413/414/431/501/505 with <c>Connection: close</c>, as raw mode answers.</summary>
    protected void Reject(RejectionReason reason)
    {
        FailureLog.RequestRejected(Connection.RemoteEndPoint, reason);
        _metrics.RequestRejected(reason);
        ClientOutput.Write(ErrorResponses.For(reason));
    }
}
