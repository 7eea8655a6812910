namespace LLRP.Proxy;

/// <summary>A client connection the <see cref="ClientConnectionTracker"/> watches for its idle and header deadlines and tells of shutdown.</summary>
internal interface ITrackedConnection
{
    /// <summary>Called by the heartbeat once a second: a connection whose deadline passed stops waiting for its client.</summary>
    void OnHeartbeat(long now);

    /// <summary>Called when the host begins to stop: finish the request in flight, then close.</summary>
    void OnStopping();
}
