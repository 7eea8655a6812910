namespace LLRP.Proxy;

/// <summary>A client connection the <see cref="ClientConnectionTracker"/> watches for its idle and header deadlines and tells of shutdown.</summary>
internal interface ITrackedConnection
{
    /// <summary><see cref="Environment.TickCount64"/> after which the connection has waited too long; <see cref="long.MaxValue"/> while it is busy.</summary>
    long Deadline { get; }

    /// <summary>Called once the deadline passed: the connection stops waiting for the client.</summary>
    void OnDeadlineExpired();

    /// <summary>Called when the host begins to stop: finish the request in flight, then close.</summary>
    void OnStopping();
}
