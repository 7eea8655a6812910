using System.IO.Pipelines;
using LLRP.Configuration;
using LLRP.Diagnostics;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Upstream.Sockets;

/// <summary>One HTTP/1.1 connection to a destination, over a socket's pipes; after a <c>101</c>, a tunnel's destination end.</summary>
internal sealed class UpstreamConnection(ConnectionContext transport, DestinationEndpoint destination, ProxyMetrics? metrics = null) : IUpstreamTunnel
{
    private int _disposed;
    private volatile bool _aborted;

    /// <summary>The <see cref="Loop"/> of a connection no event loop serves (the sockets transport's).</summary>
    public const int NoLoop = -1;

    public DestinationEndpoint Destination { get; } = destination;

    /// <summary>The epoll transport's event loop that serves this connection, or <see cref="NoLoop"/>.</summary>
    public int Loop { get; init; } = NoLoop;

    public PipeReader Input => transport.Transport.Input;

    public PipeWriter Output => transport.Transport.Output;

    public IDuplexPipe Transport => transport.Transport;

    /// <summary>Completing the output ends what is sent, the socket half-closed (<see cref="PipeConnection"/>).</summary>
    public bool HalfCloses => true;

    /// <summary><see cref="Environment.TickCount64"/> when the connection last went back to the pool.</summary>
    public long IdleSince { get; set; }

    /// <summary>The proxy aborted the connection: it is never reused.</summary>
    public bool IsAborted => _aborted;

    /// <summary>The exchanges of HTTP/2 streams pipelined on this connection, made when it first carried one.</summary>
    public ResponseLine? Line { get; set; }

    /// <summary>Responses completed on this connection; a reused connection may have been closed by the destination meanwhile.</summary>
    public int CompletedResponses { get; set; }

    /// <summary>
    /// True when nothing arrived while the connection was idle: no bytes (which would belong to no request), no end
    /// of stream (the destination closed it) and no failure (a reset, or an abort by the proxy itself).
    /// </summary>
    public bool IsIdleAndOpen()
    {
        if (_aborted)
        {
            return false;
        }

        ReadResult result;
        try
        {
            if (!Input.TryRead(out result))
            {
                return true;
            }
        }
        catch (Exception e) when (e is IOException or ConnectionAbortedException or ConnectionResetException or ObjectDisposedException or InvalidOperationException)
        {
            return false;
        }

        Input.AdvanceTo(result.Buffer.Start);
        return false;
    }

    /// <summary>A request went behind another's on the connection (<see cref="ResponseLine"/>): counted in <c>llrp.upstream.pipelined</c>.</summary>
    public void CountPipelined() => metrics?.RequestPipelined();

    /// <summary>Tears the connection down; it is never reused after this, whatever its pipes still report.</summary>
    public void Abort()
    {
        _aborted = true;
        transport.Abort(new ConnectionAbortedException("Upstream connection discarded."));
    }

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
