using System.IO.Pipelines;
using LLRP.Configuration;
using LLRP.Diagnostics;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Upstream.Sockets;

/// <summary>One HTTP/1.1 connection to a downstream, over Kestrel's socket transport pipes.</summary>
internal sealed class UpstreamConnection(ConnectionContext transport, DownstreamEndpoint downstream, ProxyMetrics? metrics = null) : IAsyncDisposable
{
    private int _disposed;

    public DownstreamEndpoint Downstream { get; } = downstream;

    public PipeReader Input => transport.Transport.Input;

    public PipeWriter Output => transport.Transport.Output;

    /// <summary><see cref="Environment.TickCount64"/> when the connection last went back to the pool.</summary>
    public long IdleSince { get; set; }

    /// <summary>Responses completed on this connection; a reused connection may have been closed by the downstream meanwhile.</summary>
    public int CompletedResponses { get; set; }

    /// <summary>
    /// True when nothing arrived while the connection was idle: no bytes (which would belong to no request) and
    /// no end of stream (the downstream closed it).
    /// </summary>
    public bool IsIdleAndOpen()
    {
        if (!Input.TryRead(out var result))
        {
            return true;
        }

        Input.AdvanceTo(result.Buffer.Start);
        return false;
    }

    public void Abort() => transport.Abort(new ConnectionAbortedException("Upstream connection discarded."));

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        metrics?.UpstreamConnectionClosed();
        await Input.CompleteAsync();
        await Output.CompleteAsync();
        await transport.DisposeAsync();
    }
}
