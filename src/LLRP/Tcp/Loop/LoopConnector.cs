using System.Net;
using System.Net.Sockets;
using LLRP.Diagnostics;
using LLRP.Routing.Destinations;
using LLRP.Transport.Epoll;

namespace LLRP.Tcp.Loop;

/// <summary>
/// Opens the upstream connection of a spliced relay on the relay's loop (<see cref="LoopUpstream"/>) within the route's
/// connect timeout; a failure is logged (once a second at most) and returned, as <see cref="TcpUpstreamConnector"/> does for
/// the copy loop. A destination named by host is resolved first, off the loop (the resolver is asynchronous and may wait),
/// and its first address connected to.
/// </summary>
internal sealed class LoopConnector(FailureLog failures)
{
    /// <param name="loop">The loop the relay will run on.</param>
    /// <param name="destination">Where to connect.</param>
    /// <param name="timeout">The connect, and the send of <paramref name="header"/>, within this.</param>
    /// <param name="header">The PROXY protocol header sent first (empty for none).</param>
    public async ValueTask<(LoopUpstream? Connection, ForwarderError Error)> ConnectAsync(EventLoop loop, Destination destination, TimeSpan timeout, ReadOnlyMemory<byte> header)
    {
        IPEndPoint endPoint;
        try
        {
            endPoint = destination.Endpoint.EndPoint as IPEndPoint ?? await ResolveAsync((DnsEndPoint)destination.Endpoint.EndPoint);
        }
        catch (SocketException e)
        {
            failures.ForwardingFailed(destination.Name, ForwarderError.ConnectFailed, e);
            return (null, ForwarderError.ConnectFailed);
        }

        var upstream = new LoopUpstream(loop, endPoint, header);
        loop.Post(static state => ((LoopUpstream)state!).Begin(), upstream);
        SocketError error;
        using (var deadline = new CancellationTokenSource(timeout))
        await using (deadline.Token.UnsafeRegister(static state => ((LoopUpstream)state!).Loop.Post(static late => ((LoopUpstream)late!).Cancel(), state), upstream))
        {
            error = await upstream.Connected;
        }

        if (error == SocketError.Success)
        {
            return (upstream, ForwarderError.None);
        }

        var failure = error == SocketError.TimedOut ? ForwarderError.ConnectTimeout : ForwarderError.ConnectFailed;
        failures.ForwardingFailed(destination.Name, failure, new SocketException((int)error));
        return (null, failure);
    }

    private static async Task<IPEndPoint> ResolveAsync(DnsEndPoint name)
    {
        var addresses = await Dns.GetHostAddressesAsync(name.Host, name.AddressFamily);
        return addresses.Length > 0
            ? new IPEndPoint(addresses[0], name.Port)
            : throw new SocketException((int)SocketError.HostNotFound);
    }
}
