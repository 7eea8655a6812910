using System.Net.Sockets;
using LLRP.Diagnostics;
using LLRP.Routing.Destinations;

namespace LLRP.Tcp;

/// <summary>Opens the upstream connection of a relay to a <c>tcp://</c> destination within the route's connect timeout; a failure is logged (once a second at most) and returned.</summary>
internal sealed class TcpUpstreamConnector(FailureLog failures)
{
    public async ValueTask<(Socket? Connection, ForwarderError Error)> ConnectAsync(Destination destination, TimeSpan timeout)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        using var deadline = new CancellationTokenSource(timeout);
        try
        {
            await socket.ConnectAsync(destination.Endpoint.EndPoint, deadline.Token);
            return (socket, ForwarderError.None);
        }
        catch (OperationCanceledException e)
        {
            socket.Dispose();
            failures.ForwardingFailed(destination.Name, ForwarderError.ConnectTimeout, e);
            return (null, ForwarderError.ConnectTimeout);
        }
        catch (SocketException e)
        {
            socket.Dispose();
            failures.ForwardingFailed(destination.Name, ForwarderError.ConnectFailed, e);
            return (null, ForwarderError.ConnectFailed);
        }
    }
}
