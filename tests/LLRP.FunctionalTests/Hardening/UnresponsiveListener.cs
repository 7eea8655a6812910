using System.Net;
using System.Net.Sockets;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>
/// A loopback port where a TCP connect hangs: a socket listening with a backlog of 1 that never accepts, its accept
/// queue filled first. Linux then drops further SYNs (the ListenOverflows counter) instead of refusing them, so a
/// connect neither succeeds nor fails until the connecting side gives up.
/// </summary>
public sealed class UnresponsiveListener : IDisposable
{
    private static readonly TimeSpan ProbeTimeout = TimeSpan.FromMilliseconds(300);

    private readonly Socket _listener;
    private readonly List<Socket> _queued = [];

    private UnresponsiveListener()
    {
        _listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        _listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        _listener.Listen(1);
    }

    public string Url => $"http://{_listener.LocalEndPoint}";

    /// <summary>Fills the accept queue, and proves it is full: the last connect attempt must hang.</summary>
    public static UnresponsiveListener Start()
    {
        var listener = new UnresponsiveListener();
        try
        {
            for (var attempt = 0; attempt < 8; attempt++)
            {
                if (!listener.TryQueueConnection())
                {
                    return listener;
                }
            }
        }
        catch
        {
            listener.Dispose();
            throw;
        }

        listener.Dispose();
        throw new InvalidOperationException("Connects to a full accept queue did not hang here: SYNs to a full queue are not dropped on this system.");
    }

    public void Dispose()
    {
        foreach (var socket in _queued)
        {
            socket.Dispose();
        }

        _listener.Dispose();
    }

    /// <summary>
    /// True when a connection was queued; false when the connect hung for <see cref="ProbeTimeout"/>. The socket's own state
    /// is asked (<c>poll</c> for writability), not when an asynchronous connect's continuation ran: on a busy machine a
    /// continuation can come later than the timeout for a connect that had completed, which then counted as hung and left
    /// the queue with room, so the proxy's connect succeeded and its request waited for an answer that never came. On
    /// loopback a handshake with room in the queue completes within the connect call; a SYN to a full queue is dropped, and
    /// the socket stays connecting until its first retransmission, a second later.
    /// </summary>
    private bool TryQueueConnection()
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { Blocking = false };
        try
        {
            socket.Connect(_listener.LocalEndPoint!);
        }
        catch (SocketException e) when (e.SocketErrorCode is SocketError.WouldBlock or SocketError.InProgress)
        {
            // Connecting: the poll below says whether the handshake completed.
        }

        if (socket.Poll(ProbeTimeout, SelectMode.SelectWrite))
        {
            _queued.Add(socket);
            return true;
        }

        socket.Dispose();
        return false;
    }
}
