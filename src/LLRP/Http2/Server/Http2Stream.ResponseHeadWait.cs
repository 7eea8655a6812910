using LLRP.Proxy;
using LLRP.Upstream;

namespace LLRP.Http2.Server;

/// <summary>The stream's wait for its response head (<see cref="IResponseHeadWaitFeature"/>), expired by the connection's heartbeat or the client's reset.</summary>
internal sealed partial class Http2Stream : IResponseHeadWaitFeature
{
    private readonly ConnectionDeadline _responseHeadWait = new();
    private CancellationTokenSource? _responseHeadExpired;

    bool IResponseHeadWaitFeature.BeginResponseHeadWait(long deadline, CancellationTokenSource expired)
    {
        if (_requestAborted is not null)
        {
            return false;
        }

        Volatile.Write(ref _responseHeadExpired, expired);
        _responseHeadWait.WaitUntil(deadline);
        // A full fence above, and one in AbortRequest's claim after it marked the abort: either this sees the mark, or the claim sees the wait.
        if (Volatile.Read(ref _abortQueued) && _responseHeadWait.TakeBack())
        {
            // The client reset the stream before the wait began: the forwarder takes the request's abort token itself.
            return false;
        }

        return true;
    }

    bool IResponseHeadWaitFeature.EndResponseHeadWait() => _responseHeadWait.TakeBack();

    /// <summary>
    /// Claims the wait for the response head if one runs and, unless <paramref name="now"/> is null (the client reset
    /// the stream), its deadline passed.
    /// </summary>
    /// <returns>The wait's source, for the caller to cancel outside the output's lock (its callbacks resume the forwarder); null when none was claimed.</returns>
    public CancellationTokenSource? ClaimResponseHeadWait(long? now)
    {
        // Read before the claim: once claimed, the forwarder may begin another wait with another source.
        var expired = Volatile.Read(ref _responseHeadExpired);
        return _responseHeadWait.TryClaim(now) ? expired : null;
    }
}
