using System.Net;
using LLRP.Configuration;
using LLRP.Upstream.HttpClient;
using Yarp.ReverseProxy.Forwarder;

namespace LLRP.Upstream.Yarp;

/// <summary>yarp mode's forwarders: one per client connection, over YARP's forwarder and the invokers the sharing keys give it.</summary>
internal sealed class YarpForwarderFactory(ProxyOptions options, HttpClientInvokers invokers, IHttpForwarder forwarder) : IForwarderFactory
{
    /// <summary>YARP's activity timeout (reset on every read or write) is the response headers timeout.</summary>
    private readonly ForwarderRequestConfig _config = Http11(options.ResponseHeadersTimeout);

    /// <summary>An upgrade request's: YARP's activity timeout also runs while it relays the tunnel (<see cref="YarpForwarder.UpgradeActivityTimeout"/>).</summary>
    private readonly ForwarderRequestConfig _upgradeConfig = Http11(YarpForwarder.UpgradeActivityTimeout(options.ResponseHeadersTimeout, options.TunnelIdleTimeout));

    public IRequestForwarder Create(ForwarderContext context) => new YarpForwarder(
        context,
        invokers.ForConnection(),
        forwarder,
        _config,
        _upgradeConfig,
        options.ResponseHeadersTimeout,
        options.TunnelIdleTimeout,
        options.MaxResponseHeadersTotalSize);

    /// <summary>HTTP/1.1 exactly: an upgrade request's always, any other's until its batch's cluster asks another version.</summary>
    private static ForwarderRequestConfig Http11(TimeSpan activityTimeout) => new()
    {
        ActivityTimeout = activityTimeout,
        Version = HttpVersion.Version11,
        VersionPolicy = HttpVersionPolicy.RequestVersionExact,
    };
}
