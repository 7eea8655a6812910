using System.Net;
using System.Net.Sockets;
using LLRP.Diagnostics;
using LLRP.Routing.Destinations;

namespace LLRP.Tcp;

/// <summary>
/// Opens the upstream connection of a relay to a <c>tcp://</c> destination within the route's connect timeout, and sends
/// the cluster's PROXY protocol header first; a failure is logged (once a second at most) and returned.
/// </summary>
internal sealed class TcpUpstreamConnector(FailureLog failures)
{
    /// <param name="destination">Where to connect.</param>
    /// <param name="timeout">The connect, and the send of <paramref name="header"/>, within this.</param>
    /// <param name="header">The PROXY protocol header sent first (empty for none): its send failing fails the connect, nothing of the client's being sent yet.</param>
    public async ValueTask<(Socket? Connection, ForwarderError Error)> ConnectAsync(Destination destination, TimeSpan timeout, ReadOnlyMemory<byte> header)
    {
        // An address's socket is of its own family: a dual-mode one costs four more system calls on every connection.
        var endPoint = destination.Endpoint.EndPoint;
        var socket = endPoint is IPEndPoint address
            ? new Socket(address.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true }
            : new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        using var deadline = new CancellationTokenSource(timeout);
        try
        {
            await socket.ConnectAsync(endPoint, deadline.Token);
            if (!header.IsEmpty)
            {
                await socket.SendAsync(header, SocketFlags.None, deadline.Token);
            }

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
