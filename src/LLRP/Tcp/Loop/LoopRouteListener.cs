using System.Net;
using System.Net.Sockets;
using LLRP.Transport;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Tcp.Loop;

/// <summary>
/// A spliced TCP route's address as Kestrel binds it: Kestrel reports the address (the start-up report, a taken port),
/// and stops it with the proxy, but never sees a connection. Every relay loop accepts on it (<see cref="LoopListener"/>):
/// each loop on a socket of its own bound with <c>SO_REUSEPORT</c>, so that the kernel spreads the connections; one socket
/// registered with every loop when the system refuses the option. Its stop is graceful: accepting stops at once, the
/// route's connections have until <c>shutdownTimeoutMs</c> (or Kestrel's own shutdown deadline) to end, and those still
/// open then end aborted.
/// </summary>
internal sealed class LoopRouteListener : IConnectionListener
{
    private readonly RelayLoops _loops;
    private readonly TcpRouteConnections _connections;
    private readonly TimeSpan _shutdownTimeout;
    private readonly Socket[] _sockets;
    private readonly LoopListener[] _listeners;
    private readonly TaskCompletionSource<ConnectionContext?> _unbound = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private CancellationToken _stopping;
    private bool _unbinding;

    private LoopRouteListener(RelayLoops loops, TcpRouteConnections connections, TimeSpan shutdownTimeout, Socket[] sockets)
    {
        _loops = loops;
        _connections = connections;
        _shutdownTimeout = shutdownTimeout;
        _sockets = sockets;
        EndPoint = sockets[0].LocalEndPoint!;
        _listeners = new LoopListener[loops.All.Count];
        for (var i = 0; i < _listeners.Length; i++)
        {
            var listener = _listeners[i] = new LoopListener(loops.All[i], connections, sockets[i % sockets.Length], own: sockets.Length > 1);
            loops.All[i].Loop.Post(static state => ((LoopListener)state!).Start(), listener);
        }
    }

    public EndPoint EndPoint { get; }

    /// <exception cref="AddressInUseException">The address is taken.</exception>
    public static LoopRouteListener Bind(IPEndPoint endpoint, RelayLoops loops, TcpRouteConnections connections, TimeSpan shutdownTimeout)
    {
        // SO_REUSEPORT refused (or not wanted): one socket for every loop.
        var sockets = (loops.ReusePort ? SocketPerLoop(endpoint, loops.All.Count) : null) ?? [ListeningSocket.Open(endpoint)];
        foreach (var socket in sockets)
        {
            // Linux copies it to every socket accepted: no call per connection.
            socket.NoDelay = true;
            socket.Blocking = false;
        }

        return new LoopRouteListener(loops, connections, shutdownTimeout, sockets);
    }

    /// <summary>A socket bound with <c>SO_REUSEPORT</c> for each of <paramref name="count"/> loops; null when the system refuses the option.</summary>
    /// <exception cref="AddressInUseException">The address is taken.</exception>
    private static Socket[]? SocketPerLoop(IPEndPoint endpoint, int count)
    {
        var sockets = new List<Socket>(count);
        try
        {
            sockets.Add(ListeningSocket.Open(endpoint, reusePort: true));
            var bound = new IPEndPoint(endpoint.Address, ((IPEndPoint)sockets[0].LocalEndPoint!).Port);
            while (sockets.Count < count)
            {
                sockets.Add(ListeningSocket.Open(bound, reusePort: true));
            }

            return [.. sockets];
        }
        catch (SocketException)
        {
            sockets.ForEach(socket => socket.Dispose());
            return null;
        }
        catch
        {
            sockets.ForEach(socket => socket.Dispose());
            throw;
        }
    }

    /// <summary>Kestrel's accept loop waits here until the address is unbound: the loops accept, not Kestrel.</summary>
    public ValueTask<ConnectionContext?> AcceptAsync(CancellationToken cancellationToken = default) => new(_unbound.Task);

    /// <summary>Stops accepting on every loop and closes the sockets; the connections accepted go on.</summary>
    /// <param name="cancellationToken">Kestrel's shutdown deadline, which also bounds the connections' end.</param>
    public async ValueTask UnbindAsync(CancellationToken cancellationToken = default)
    {
        if (_unbinding)
        {
            return;
        }

        _unbinding = true;
        _stopping = cancellationToken;
        foreach (var listener in _listeners)
        {
            await OnLoopAsync(listener.Home, listener.Stop);
        }

        foreach (var socket in _sockets)
        {
            socket.Dispose();
        }

        _unbound.TrySetResult(null);
    }

    /// <summary>Lets the route's connections end within the shutdown timeout, then ends those left as aborted.</summary>
    public async ValueTask DisposeAsync()
    {
        await UnbindAsync(_stopping);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(_stopping);
        deadline.CancelAfter(_shutdownTimeout);
        try
        {
            while (_connections.Open > 0)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(10), deadline.Token);
            }

            return;
        }
        catch (OperationCanceledException)
        {
            // The shutdown timeout: what is left is aborted.
        }

        foreach (var loop in _loops.All)
        {
            await OnLoopAsync(loop, () => loop.Abort(_connections));
        }
    }

    /// <summary>Runs <paramref name="action"/> on <paramref name="loop"/>'s thread and waits for it; a stopped loop runs nothing.</summary>
    private static async Task OnLoopAsync(RelayLoop loop, Action action)
    {
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var stopped = loop.Loop.Stopped.UnsafeRegister(static state => ((TaskCompletionSource)state!).TrySetResult(), done);
        loop.Loop.Post(
            static state =>
            {
                var (run, finished) = ((Action, TaskCompletionSource))state!;
                run();
                finished.TrySetResult();
            },
            (action, done));
        await done.Task;
    }
}
