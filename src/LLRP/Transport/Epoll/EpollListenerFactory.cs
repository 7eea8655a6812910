using System.Net;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Transport.Epoll;

/// <summary>
/// Kestrel's transport for IP endpoints when <c>transport=epoll</c>: it binds and listens as Kestrel's sockets transport
/// does (an IPv6 wildcard also takes IPv4), and serves accepted connections on <see cref="EpollTransport"/>. Unix sockets
/// stay with the sockets transport.
/// </summary>
internal sealed class EpollListenerFactory(EpollTransport transport) : IConnectionListenerFactory, IConnectionListenerFactorySelector
{
    public bool CanBind(EndPoint endpoint) => endpoint is IPEndPoint;

    public ValueTask<IConnectionListener> BindAsync(EndPoint endpoint, CancellationToken cancellationToken = default)
        => new(new EpollConnectionListener(ListeningSocket.Open((IPEndPoint)endpoint), transport));
}
