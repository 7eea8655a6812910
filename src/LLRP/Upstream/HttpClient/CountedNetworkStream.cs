using System.Net.Sockets;
using LLRP.Diagnostics;

namespace LLRP.Upstream.HttpClient;

/// <summary>An upstream connection of the HttpClient modes, counted in <c>llrp.upstream.active_connections</c> until disposed.</summary>
internal sealed class CountedNetworkStream(Socket socket, ProxyMetrics metrics) : NetworkStream(socket, ownsSocket: true)
{
    private int _closed;

    /// <summary>Connects as <see cref="SocketsHttpHandler"/> does by default (TCP, Nagle off), then counts the connection.</summary>
    public static async ValueTask<Stream> ConnectAsync(SocketsHttpConnectionContext context, ProxyMetrics metrics, CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(context.DnsEndPoint, cancellationToken);
        }
        catch
        {
            socket.Dispose();
            throw;
        }

        metrics.UpstreamConnectionOpened();
        return new CountedNetworkStream(socket, metrics);
    }

    protected override void Dispose(bool disposing)
    {
        if (Interlocked.Exchange(ref _closed, 1) == 0)
        {
            metrics.UpstreamConnectionClosed();
        }

        base.Dispose(disposing);
    }
}
