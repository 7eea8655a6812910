using LLRP.ClientSide;
using LLRP.Diagnostics;

namespace LLRP.Upstream;

/// <summary>
/// A client connection's tunnel, as its heartbeat and its stop see it: whether there is one, when bytes last crossed it
/// (touched by whatever relays them), and its destination end, so that an idle timeout or a stop ends both sides even
/// after the client half-closed, in every mode (YARP's relay too). Opening and closing it counts the tunnel in the
/// metrics. One per client connection.
/// </summary>
internal sealed class TunnelActivity(ProxyMetrics metrics)
{
    /// <summary>Orders <see cref="Close"/> and <see cref="AbortUpstream"/>: no abort starts once the tunnel closed, whose ends are then disposed.</summary>
    private readonly Lock _gate = new();
    private long _lastActivity;
    private IUpstreamTunnelEnd? _upstream;

    /// <summary>The connection is a tunnel.</summary>
    public bool IsOpen => Volatile.Read(ref _lastActivity) != 0;

    /// <summary>
    /// Makes the connection a tunnel, unless the proxy is stopping: the tunnel is open before <paramref name="client"/>'s
    /// stopping flag is read, as a stop sets the flag before it looks for a tunnel to close, so one of the two sees the
    /// other. False (and nothing open) when stopping.
    /// </summary>
    /// <param name="upstream">The destination's end, which <see cref="AbortUpstream"/> tears down.</param>
    public bool TryOpen(IUpstreamTunnelEnd upstream, ClientResponseWriter client)
    {
        Volatile.Write(ref _upstream, upstream);
        Touch();
        Interlocked.MemoryBarrier();
        if (client.Stopping)
        {
            lock (_gate)
            {
                Volatile.Write(ref _lastActivity, 0);
                _upstream = null;
            }

            return false;
        }

        metrics.TunnelOpened();
        return true;
    }

    /// <summary>Bytes crossed the tunnel.</summary>
    public void Touch() => Volatile.Write(ref _lastActivity, Math.Max(Environment.TickCount64, 1));

    /// <summary>Counts <paramref name="bytes"/> relayed, to the client or from it.</summary>
    public void Count(long bytes, bool toClient)
    {
        if (toClient)
        {
            metrics.BytesSent(bytes);
        }
        else
        {
            metrics.BytesReceived(bytes);
        }
    }

    /// <summary>The tunnel ended.</summary>
    public void Close()
    {
        lock (_gate)
        {
            Volatile.Write(ref _lastActivity, 0);
            _upstream = null;
        }

        metrics.TunnelClosed();
    }

    /// <summary>The connection is a tunnel in which nothing moved for <paramref name="idleMs"/> up to <paramref name="now"/>.</summary>
    public bool IsIdle(long now, long idleMs)
    {
        var last = Volatile.Read(ref _lastActivity);
        return last != 0 && now - last >= idleMs;
    }

    /// <summary>Aborts the destination's end of an open tunnel; the client's end is the caller's to abort.</summary>
    public void AbortUpstream()
    {
        lock (_gate)
        {
            _upstream?.Abort();
        }
    }
}
