using System.Buffers;
using System.Net;
using System.Net.Sockets;
using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Transport.Epoll;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// Raw mode's upstream connections over the epoll transport (<c>transport=epoll</c>): a connection to an <c>http</c>
/// destination given by address is opened on the event loop of the client connection asking for it, so the request and
/// its response are handled by one thread. TLS destinations and destinations given by name go through
/// <see cref="UpstreamConnector"/> (.NET's sockets). A PROXY protocol header is written first, and goes out with the first request.
/// </summary>
internal sealed class EpollUpstreamConnector(EpollTransport transport, UpstreamConnector sockets, ProxyOptions options, ProxyMetrics metrics) : IUpstreamConnectionFactory
{
    private readonly TimeSpan _connectTimeout = options.ConnectTimeout;

    /// <exception cref="UpstreamException">Refused, unreachable, timed out, or the TLS handshake failed.</exception>
    public async ValueTask<UpstreamConnection> ConnectAsync(DestinationEndpoint destination, ReadOnlyMemory<byte> proxyHeader)
    {
        if (destination.IsTls || destination.EndPoint is not IPEndPoint endPoint)
        {
            return await sockets.ConnectAsync(destination, proxyHeader);
        }

        using var timeout = new CancellationTokenSource(_connectTimeout);
        EpollConnection connection;
        try
        {
            connection = await transport.ConnectAsync(endPoint, timeout.Token);
        }
        catch (OperationCanceledException e)
        {
            throw new UpstreamException(ForwarderError.ConnectTimeout, e);
        }
        catch (SocketException e)
        {
            throw new UpstreamException(ForwarderError.ConnectFailed, e);
        }

        if (!proxyHeader.IsEmpty)
        {
            connection.Transport.Output.Write(proxyHeader.Span);
        }

        metrics.UpstreamConnectionOpened();
        return new UpstreamConnection(connection, destination, metrics) { Loop = connection.Loop.Id };
    }
}
