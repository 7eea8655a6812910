using System.Collections.Concurrent;
using LLRP.Configuration;
using LLRP.Transport.Epoll;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// Idle upstream connections shared by all client connections (the <c>pooled</c> strategy), a bounded stack per
/// destination (made when the destination is first used, so destinations a reload adds get theirs): the most recently
/// used connection is reused first, so its buffers and the destination's are warm.
/// Connections idle longer than the idle timeout are closed by a sweep once a second. Over the epoll transport, each
/// event loop has its own stacks: a client connection reuses only connections served by its own loop's thread.
/// </summary>
internal sealed class UpstreamConnectionPool : IDisposable
{
    private const int SweepBatch = 64;

    private readonly ConcurrentDictionary<(DestinationEndpoint, int), IdleConnectionStack> _idle = new();
    private readonly Func<(DestinationEndpoint, int), IdleConnectionStack> _newStack;
    private readonly long _idleTimeoutMs;
    private readonly Timer _sweeper;

    public UpstreamConnectionPool(ProxyOptions options)
    {
        var maxIdle = options.MaxIdleConnectionsPerDownstream;
        _newStack = _ => new IdleConnectionStack(maxIdle);
        _idleTimeoutMs = (long)options.PooledConnectionIdleTimeout.TotalMilliseconds;
        _sweeper = new Timer(static state => ((UpstreamConnectionPool)state!).CloseExpired(), this, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1));
    }

    /// <summary>An idle connection that is still open, or null.</summary>
    public UpstreamConnection? Rent(DestinationEndpoint destination)
    {
        if (!_idle.TryGetValue((destination, EventLoop.Current?.Id ?? UpstreamConnection.NoLoop), out var stack))
        {
            return null;
        }

        var cutoff = Environment.TickCount64 - _idleTimeoutMs;
        while (stack.TryPop(out var connection))
        {
            if (connection.IdleSince >= cutoff && connection.IsIdleAndOpen())
            {
                return connection;
            }

            Close(connection);
        }

        return null;
    }

    /// <summary>Keeps a reusable connection; closes it when the destination's idle stack is full.</summary>
    public void Return(UpstreamConnection connection)
    {
        connection.IdleSince = Environment.TickCount64;
        if (!_idle.GetOrAdd((connection.Destination, connection.Loop), _newStack).TryPush(connection))
        {
            Close(connection);
        }
    }

    /// <summary>Closes every idle connection when the proxy stops.</summary>
    public void Dispose()
    {
        _sweeper.Dispose();
        foreach (var stack in _idle.Values)
        {
            while (stack.TryPop(out var connection))
            {
                Close(connection);
            }
        }
    }

    private void CloseExpired()
    {
        var cutoff = Environment.TickCount64 - _idleTimeoutMs;
        var expired = new UpstreamConnection[SweepBatch];
        foreach (var stack in _idle.Values)
        {
            int count;
            do
            {
                count = stack.RemoveIdleSince(cutoff, expired);
                for (var i = 0; i < count; i++)
                {
                    Close(expired[i]);
                }
            }
            while (count == SweepBatch);
        }
    }

    private static void Close(UpstreamConnection connection)
    {
        connection.Abort();
        _ = connection.DisposeAsync();
    }
}
