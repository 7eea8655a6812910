using System.Collections.Concurrent;
using LLRP.Configuration;
using LLRP.Tasks;
using LLRP.Transport.Epoll;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// Idle upstream connections shared by all client connections (the <c>pooled</c> strategy), a bounded stack per
/// destination (made when the destination is first used, so destinations a reload adds get theirs): the most recently
/// used connection is reused first, so its buffers and the destination's are warm.
/// Connections idle longer than the idle timeout are closed by a sweep once a second, started by the first connection
/// kept (a proxy of TCP routes alone keeps none). Over the epoll transport, each
/// event loop has its own stacks: a client connection reuses a connection served by its own loop's thread first, and one
/// of another loop only when its own has none.
/// </summary>
internal sealed class UpstreamConnectionPool : IDisposable
{
    private const int SweepBatch = 64;

    private readonly ConcurrentDictionary<DestinationEndpoint, DestinationIdleStacks> _idle = new();
    private readonly Func<DestinationEndpoint, DestinationIdleStacks> _newStacks;
    private readonly long _idleTimeoutMs;
    private readonly OnDemandHeartbeat _sweeper;

    public UpstreamConnectionPool(ProxyOptions options)
    {
        var maxIdle = options.MaxIdleConnectionsPerDownstream;
        _newStacks = _ => new DestinationIdleStacks(maxIdle);
        _idleTimeoutMs = (long)options.PooledConnectionIdleTimeout.TotalMilliseconds;
        _sweeper = new OnDemandHeartbeat(static state => ((UpstreamConnectionPool)state!).CloseExpired(), this);
    }

    /// <summary>Every idle stack made so far, of every destination and loop (the sweep's and the stop's walk).</summary>
    private IEnumerable<IdleConnectionStack> Stacks => _idle.Values.SelectMany(stacks => stacks.Slots).OfType<IdleConnectionStack>();

    /// <summary>An idle connection that is still open, or null.</summary>
    public UpstreamConnection? Rent(DestinationEndpoint destination)
    {
        if (!_idle.TryGetValue(destination, out var stacks))
        {
            return null;
        }

        var own = EventLoop.Current?.Id ?? UpstreamConnection.NoLoop;
        if (Rent(stacks.Of(own)) is { } local)
        {
            return local;
        }

        var slots = stacks.Slots;
        for (var slot = 0; slot < slots.Length; slot++)
        {
            if (slot != own + 1 && Rent(Volatile.Read(ref slots[slot])) is { } other)
            {
                return other;
            }
        }

        return null;
    }

    private UpstreamConnection? Rent(IdleConnectionStack? stack)
    {
        if (stack is null)
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
        _sweeper.Start();
        if (!_idle.GetOrAdd(connection.Destination, _newStacks).For(connection.Loop).TryPush(connection))
        {
            Close(connection);
        }
    }

    /// <summary>Closes every idle connection when the proxy stops.</summary>
    public void Dispose()
    {
        _sweeper.Dispose();
        foreach (var stack in Stacks)
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
        foreach (var stack in Stacks)
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
