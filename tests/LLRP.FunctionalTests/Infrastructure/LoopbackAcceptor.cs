using System.Net;
using System.Net.Sockets;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>A listener on 127.0.0.1:0 that hands every connection it accepts to a callback, one at a time, until stopped.</summary>
public sealed class LoopbackAcceptor
{
    private readonly TcpListener _listener;
    private readonly CancellationTokenSource _stopping = new();
    private readonly Task _accepting;

    /// <param name="accepted">Takes each accepted socket; the next accept waits for it.</param>
    public LoopbackAcceptor(Func<Socket, Task> accepted)
    {
        _listener = new TcpListener(IPAddress.Loopback, 0);
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
