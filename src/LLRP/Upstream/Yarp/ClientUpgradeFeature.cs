using LLRP.Upstream.LightContext;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.Yarp;

/// <summary>
/// The light context's upgrade, which YARP asks for when the destination answers <c>101</c>: the response head goes to
/// the client, then the client's end of the tunnel is handed over as a stream. Only a request the session found to be an
/// upgrade to a tunnelled protocol (<see cref="Http1.RequestHead.IsUpgrade"/>) is upgradable. An upgrade request is sent
/// with <see cref="Ended"/>, for what YARP's one activity timeout does not do: it is cancelled when the response head is
/// later than <c>timeouts.responseHeadersMs</c>, as in every mode; when the client ends its stream in the tunnel, which
/// YARP would not pass on (it would wait for the destination's end), so that the tunnel ends as in the other modes over
/// HttpClient; and when the session's heartbeat finds the tunnel idle past <c>timeouts.tunnelIdleMs</c>, or the proxy
/// stops (<see cref="Abort"/>, the destination's end of the tunnel as <see cref="TunnelActivity"/> sees it): YARP then
/// ends both directions of its relay and disposes the destination's upgraded stream, which closes that connection. One
/// per client connection.
/// </summary>
internal sealed class ClientUpgradeFeature(ForwarderContext context, LightResponse response, TimeSpan responseHeadersTimeout) : IHttpUpgradeFeature, IUpstreamTunnelEnd, IDisposable
{
    private CancellationTokenSource? _ended;

    /// <summary>The response headers timeout of the batch's cluster.</summary>
    public TimeSpan ResponseHeadersTimeout { get; set; } = responseHeadersTimeout;
    private bool _headArrived;

    /// <summary>The tunnelled protocols the request asks for (<see cref="Http1.RequestHead.RequestedUpgrades"/>); zero for no upgrade.</summary>
    public ulong RequestedUpgrades { get; private set; }

    public bool IsUpgradableRequest => RequestedUpgrades != 0;

    /// <summary>The response switched protocols: the client connection was a tunnel, and ends with it.</summary>
    public bool Switched { get; private set; }

    /// <summary>See the type's summary; none for a request that is no upgrade.</summary>
    public CancellationToken Ended => _ended?.Token ?? CancellationToken.None;

    /// <summary>The upgrade request got no response head within <c>timeouts.responseHeadersMs</c>.</summary>
    public bool HeadTimedOut => IsUpgradableRequest && !_headArrived && _ended!.IsCancellationRequested;

    public void Reset(ulong requestedUpgrades)
    {
        (RequestedUpgrades, Switched, _headArrived) = (requestedUpgrades, false, false);
        _ended?.Dispose();
        _ended = IsUpgradableRequest ? new CancellationTokenSource(ResponseHeadersTimeout) : null;
    }

    /// <summary>The response head arrived: the response headers timeout stops.</summary>
    public void HeadArrived()
    {
        if (_ended is { } ended && !ended.IsCancellationRequested)
        {
            _headArrived = true;
            ended.CancelAfter(Timeout.InfiniteTimeSpan);
        }
    }

    public async Task<Stream> UpgradeAsync()
    {
        if (!IsUpgradableRequest || response.StatusCode != 101)
        {
            throw new InvalidOperationException("Only an upgrade request answered with 101 can be upgraded.");
        }

        await response.StartAsync();
        Switched = true;
        if (!await context.Response.FlushAsync())
        {
            throw new IOException("The client closed the connection.");
        }

        if (!context.Tunnel.TryOpen(upstream: this, context.Response))
        {
            throw new IOException("The proxy is stopping.");
        }

        return new ClientTunnelStream(context.ClientTransport, context.Tunnel, _ended!);
    }

    /// <summary>Ends YARP's relay of the open tunnel; called by <see cref="TunnelActivity"/> only while the tunnel is open, before its stream is disposed.</summary>
    public void Abort() => _ended?.Cancel();

    public void Dispose() => _ended?.Dispose();
}
