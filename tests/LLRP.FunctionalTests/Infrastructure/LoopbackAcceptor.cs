using System.Net;
using System.Net.Sockets;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>A listener on 127.0.0.1 that hands every connection it accepts to a callback, one at a time, until stopped.</summary>
public sealed class LoopbackAcceptor
{
    private readonly TcpListener _listener;
    private readonly CancellationTokenSource _stopping = new();
    private readonly Task _accepting;

    /// <param name="accepted">Takes each accepted socket; the next accept waits for it.</param>
    /// <param name="port">
    /// 0 for a port the system gives out; otherwise that port, which a stopped listener may have used: the address is
    /// then reused (SO_REUSEADDR), or the connections it closed, still in TIME_WAIT, would keep it from binding.
    /// </param>
    public LoopbackAcceptor(Func<Socket, Task> accepted, int port = 0)
    {
        _listener = new TcpListener(IPAddress.Loopback, port);
        if (port != 0)
        {
            _listener.Server.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
        }

        _listener.Start();
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _accepting = AcceptAsync(accepted);
    }

    public int Port { get; }

    /// <summary>Stops accepting; returns once the accept loop has ended.</summary>
    public async Task StopAsync()
    {
        await _stopping.CancelAsync();
        _listener.Stop();
        await _accepting;
        _stopping.Dispose();
    }

    private async Task AcceptAsync(Func<Socket, Task> accepted)
    {
        while (true)
        {
            Socket socket;
            try
            {
                socket = await _listener.AcceptSocketAsync(_stopping.Token);
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException or InvalidOperationException)
            {
                // Stopped: during an accept, or between two (the listener then throws InvalidOperationException).
                return;
            }

            await accepted(socket);
        }
    }
}
