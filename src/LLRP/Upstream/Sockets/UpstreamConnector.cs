using System.Net.Sockets;
using LLRP.Configuration;
using LLRP.Diagnostics;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.Logging;

namespace LLRP.Upstream.Sockets;

/// <summary>Opens upstream connections with the connect timeout, on the same socket transport Kestrel uses for clients.</summary>
internal sealed class UpstreamConnector : IUpstreamConnectionFactory, IDisposable
{
    private readonly SocketConnectionContextFactory _factory;
    private readonly TimeSpan _connectTimeout;
    private readonly ProxyMetrics _metrics;

    public UpstreamConnector(ProxyOptions options, ProxyMetrics metrics, ILoggerFactory loggerFactory)
    {
        _metrics = metrics;
        _connectTimeout = options.ConnectTimeout;
        _factory = new SocketConnectionContextFactory(
            new SocketConnectionFactoryOptions { WaitForDataBeforeAllocatingBuffer = false, UnsafePreferInlineScheduling = options.InlineScheduling },
            loggerFactory.CreateLogger<UpstreamConnector>());
    }

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

        _metrics.UpstreamConnectionOpened();
        return new UpstreamConnection(_factory.Create(socket), downstream, _metrics);
    }

    public void Dispose() => _factory.Dispose();
}
