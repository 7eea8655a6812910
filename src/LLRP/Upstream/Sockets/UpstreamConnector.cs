using System.Net.Sockets;
using LLRP.Configuration;
using LLRP.Diagnostics;

namespace LLRP.Upstream.Sockets;

/// <summary>Opens upstream connections with the connect timeout, over <see cref="SocketPipeConnection"/>.</summary>
internal sealed class UpstreamConnector(ProxyOptions options, ProxyMetrics metrics) : IUpstreamConnectionFactory
{
    private readonly TimeSpan _connectTimeout = options.ConnectTimeout;
    private readonly bool _inlineScheduling = options.InlineScheduling;

    /// <exception cref="UpstreamException">Refused, unreachable or timed out.</exception>
    public async ValueTask<UpstreamConnection> ConnectAsync(DownstreamEndpoint downstream)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        using var timeout = new CancellationTokenSource(_connectTimeout);
        try
        {
            await socket.ConnectAsync(downstream.EndPoint, timeout.Token);
        }
        catch (OperationCanceledException e)
        {
            socket.Dispose();
            throw new UpstreamException(ForwarderError.ConnectTimeout, e);
        }
        catch (SocketException e)
        {
            socket.Dispose();
            throw new UpstreamException(ForwarderError.ConnectFailed, e);
        }

        metrics.UpstreamConnectionOpened();
        return new UpstreamConnection(new SocketPipeConnection(socket, _inlineScheduling), downstream, metrics);
    }
}
