using System.Buffers;
using System.Runtime.CompilerServices;
using LLRP.Diagnostics;
using LLRP.Upstream.Sockets;

namespace LLRP.Proxy;

internal sealed partial class ClientConnection
{
    /// <summary>Makes <see cref="_upstream"/> an open connection: the one held if still open, else a pooled one, else a new one.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<ForwarderError> EnsureUpstreamAsync()
    {
        if (_upstream is { } held)
        {
            if (held.IsIdleAndOpen())
            {
                return ForwarderError.None;
            }

            DiscardUpstream();
        }

        var downstream = _headWriter.Downstream;
        if (_pool?.Rent(downstream) is { } pooled)
        {
            _upstream = pooled;
            return ForwarderError.None;
        }

        try
        {
            _upstream = await _connector.ConnectAsync(downstream);
            return ForwarderError.None;
        }
        catch (UpstreamException e)
        {
            return e.Error;
        }
    }

    /// <summary>Flushes what was written upstream. A failure here shows again, classified, when the response is read.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask FlushUpstreamAsync()
    {
        try
        {
            await _upstream!.Output.FlushAsync();
        }
        catch (Exception e) when (IsConnectionFailure(e))
        {
            _upstream!.Abort();
        }
    }

    /// <summary>After a batch: keep the connection (per client), give it back (pooled), or discard it.</summary>
    private void ReleaseUpstream(bool reusable)
    {
        if (!reusable)
        {
            DiscardUpstream();
        }
        else if (_pool is not null && _upstream is { } upstream)
        {
            _upstream = null;
            _pool.Return(upstream);
        }
    }

    private void DiscardUpstream()
    {
        if (_upstream is { } upstream)
        {
            _upstream = null;
            upstream.Abort();
            _ = upstream.DisposeAsync();
        }
    }

    /// <summary>Reports a failure once, then answers it: an error response if the response has not started, else an abort.</summary>
    private void Fail(in ResponseOutcome outcome)
    {
        if (outcome.Error != ForwarderError.ClientAborted && !_clientGone)
        {
            _failureLog.ForwardingFailed(_headWriter.Downstream.ToString(), outcome.Error);
            _metrics.ForwardingFailed(outcome.Error);
        }

        DiscardUpstream();
        if (outcome.Started)
        {
            _connection.Abort();
        }
        else
        {
            _clientOutput.Write(ErrorResponses.For(outcome.Error));
        }
    }
}
