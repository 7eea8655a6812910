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
    public static async Task<UnresponsiveListener> StartAsync()
    {
        var listener = new UnresponsiveListener();
        try
        {
            for (var attempt = 0; attempt < 8; attempt++)
            {
                if (!await listener.TryQueueConnectionAsync())
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

    /// <summary>True when a connection was queued; false when the connect hung for <see cref="ProbeTimeout"/>.</summary>
    private async Task<bool> TryQueueConnectionAsync()
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        using var timeout = new CancellationTokenSource(ProbeTimeout);
        try
        {
            await socket.ConnectAsync(_listener.LocalEndPoint!, timeout.Token);
        }
        catch (OperationCanceledException)
        {
            socket.Dispose();
            return false;
        }

        _queued.Add(socket);
        return true;
    }
}
