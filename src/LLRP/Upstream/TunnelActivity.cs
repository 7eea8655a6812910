namespace LLRP.Upstream;

/// <summary>
/// When bytes last crossed a client connection's tunnel, for its idle timeout: touched by whatever relays them, read by
/// the heartbeat. Zero while the connection is no tunnel.
/// </summary>
internal sealed class TunnelActivity
{
    private long _lastActivity;

    /// <summary>The connection is a tunnel from now on.</summary>
    public void Open() => Touch();

    /// <summary>Bytes crossed the tunnel.</summary>
    public void Touch() => Volatile.Write(ref _lastActivity, Math.Max(Environment.TickCount64, 1));

    /// <summary>The tunnel ended.</summary>
    public void Close() => Volatile.Write(ref _lastActivity, 0);

    /// <summary>The connection is a tunnel.</summary>
    public bool IsOpen => Volatile.Read(ref _lastActivity) != 0;

    /// <summary>The connection is a tunnel in which nothing moved for <paramref name="idleMs"/> up to <paramref name="now"/>.</summary>
    public bool IsIdle(long now, long idleMs)
    {
        var last = Volatile.Read(ref _lastActivity);
        return last != 0 && now - last >= idleMs;
    }
}
