using LLRP.ClientSide;
using LLRP.Diagnostics;

namespace LLRP.Upstream;

/// <summary>
/// A client connection's tunnel, as its heartbeat and its stop see it: whether there is one, when bytes last crossed it
/// (touched by whatever relays them), and its destination end, so that an idle timeout or a stop ends both sides even
/// after the client half-closed. Opening and closing it counts the tunnel in the metrics. One per client connection.
/// </summary>
internal sealed class TunnelActivity(ProxyMetrics metrics)
{
    private long _lastActivity;
    private IUpstreamTunnel? _upstream;

    /// <summary>The connection is a tunnel.</summary>
    public bool IsOpen => Volatile.Read(ref _lastActivity) != 0;

    /// <summary>
    /// Makes the connection a tunnel, unless the proxy is stopping: the tunnel is open before <paramref name="client"/>'s
    /// stopping flag is read, as a stop sets the flag before it looks for a tunnel to close, so one of the two sees the
    /// other. False (and nothing open) when stopping.
    /// </summary>
    /// <param name="upstream">The destination's end, when the proxy relays it; none when a forwarder relays it itself (YARP).</param>
    public bool TryOpen(IUpstreamTunnel? upstream, ClientResponseWriter client)
    {
        Volatile.Write(ref _upstream, upstream);
        Touch();
        Interlocked.MemoryBarrier();
        if (client.Stopping)
        {
            Volatile.Write(ref _lastActivity, 0);
            Volatile.Write(ref _upstream, null);
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
        Volatile.Write(ref _lastActivity, 0);
        Volatile.Write(ref _upstream, null);
        metrics.TunnelClosed();
    }

    /// <summary>The connection is a tunnel in which nothing moved for <paramref name="idleMs"/> up to <paramref name="now"/>.</summary>
    public bool IsIdle(long now, long idleMs)
    {
        var last = Volatile.Read(ref _lastActivity);
        return last != 0 && now - last >= idleMs;
    }

    /// <summary>Aborts the destination's end, if the proxy relays it; the client's end is the caller's to abort.</summary>
    public void AbortUpstream() => Volatile.Read(ref _upstream)?.Abort();
}
