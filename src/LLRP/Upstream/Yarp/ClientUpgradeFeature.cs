using LLRP.Upstream.LightContext;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.Yarp;

/// <summary>
/// The light context's upgrade, which YARP asks for when the downstream answers <c>101</c>: the response head goes to
/// the client, then the client's end of the tunnel is handed over as a stream. Only a request the session found to be an
/// upgrade to a tunnelled protocol (<see cref="Http1.RequestHead.IsUpgrade"/>) is upgradable. YARP does not pass the
/// client's end of stream on, and waits for the downstream's: the client's end cancels <see cref="ClientEnded"/>, given
/// to YARP with the request, so the tunnel ends as in the other modes over HttpClient. One per client connection.
/// </summary>
internal sealed class ClientUpgradeFeature(ForwarderContext context, LightResponse response) : IHttpUpgradeFeature, IDisposable
{
    private CancellationTokenSource? _clientEnded;

    public bool IsUpgradableRequest { get; private set; }

    /// <summary>The response switched protocols: the client connection was a tunnel, and ends with it.</summary>
    public bool Switched { get; private set; }

    /// <summary>Cancelled when the client ends its stream in the tunnel; none for a request that is no upgrade.</summary>
    public CancellationToken ClientEnded => _clientEnded?.Token ?? CancellationToken.None;

    public void Reset(bool upgradable)
    {
        (IsUpgradableRequest, Switched) = (upgradable, false);
        _clientEnded?.Dispose();
        _clientEnded = upgradable ? new CancellationTokenSource() : null;
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

        if (!context.Tunnel.TryOpen(upstream: null, context.Response))
        {
            throw new IOException("The proxy is stopping.");
        }

        return new ClientTunnelStream(context.ClientTransport, context.Tunnel, _clientEnded!);
    }

    public void Dispose() => _clientEnded?.Dispose();
}
