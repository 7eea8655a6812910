namespace LLRP.Upstream;

/// <summary>
/// A request stream of LLRP's own HTTP/2 server keeping its forwarder's response headers timeout itself: its connection's
/// heartbeat (once a second, with the connection's own deadlines) expires a wait whose deadline passed, and the stream
/// expires it when its client resets it, so the forwarder neither starts a timer nor registers with the request's abort
/// token per request (each a change of the runtime's timer queue or a registration, under a lock).
/// </summary>
internal interface IResponseHeadWaitFeature
{
    /// <summary>
    /// Starts the wait for the response head: <paramref name="expired"/> is cancelled once <paramref name="deadline"/>
    /// (<see cref="Environment.TickCount64"/>) passed, or the client reset the stream, before <see cref="EndResponseHeadWait"/>.
    /// </summary>
    /// <returns>False when the stream cannot keep it (the application replaced the request's abort token); nothing started.</returns>
    bool BeginResponseHeadWait(long deadline, CancellationTokenSource expired);

    /// <summary>Ends the wait <see cref="BeginResponseHeadWait"/> started.</summary>
    /// <returns>False when it had expired: its source is, or is about to be, cancelled, and must not serve another wait.</returns>
    bool EndResponseHeadWait();
}
