using LLRP.Configuration;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// Idle upstream connections shared by all client connections (the <c>pooled</c> strategy), a bounded stack per
/// downstream: the most recently used connection is reused first, so its buffers and the downstream's are warm.
/// </summary>
internal sealed class UpstreamConnectionPool(ProxyOptions options) : IDisposable
{
    private readonly Dictionary<DownstreamEndpoint, IdleConnectionStack> _idle =
        options.Downstreams.ToDictionary(d => d, _ => new IdleConnectionStack(options.MaxIdleConnectionsPerDownstream));

    /// <summary>An idle connection that is still open, or null.</summary>
    public UpstreamConnection? Rent(DownstreamEndpoint downstream)
    {
        var stack = _idle[downstream];
        while (stack.TryPop(out var connection))
        {
            if (connection.IsIdleAndOpen())
            {
                return connection;
            }

            _ = connection.DisposeAsync();
        }

        return null;
    }

    /// <summary>Keeps a reusable connection; disposes it when the downstream's idle stack is full.</summary>
    public void Return(UpstreamConnection connection)
    {
        if (!_idle[connection.Downstream].TryPush(connection))
        {
            _ = connection.DisposeAsync();
        }
    }

    /// <summary>Closes every idle connection when the proxy stops.</summary>
    public void Dispose()
    {
        foreach (var stack in _idle.Values)
        {
            while (stack.TryPop(out var connection))
            {
                connection.Abort();
                _ = connection.DisposeAsync();
            }
        }
    }
}
