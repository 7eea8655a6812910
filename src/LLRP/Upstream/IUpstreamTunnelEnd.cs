namespace LLRP.Upstream;

/// <summary>
/// The destination's end of a tunnel as the heartbeat and the stop see it, whoever relays the tunnel: something to tear
/// down at once, when the tunnel idles past its timeout or the proxy stops.
/// </summary>
internal interface IUpstreamTunnelEnd
{
    /// <summary>Tears the destination's end down at once.</summary>
    void Abort();
}
