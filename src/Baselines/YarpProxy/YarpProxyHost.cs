using System.Net;
using Yarp.ReverseProxy.Forwarder;
using Yarp.ReverseProxy.Configuration;

namespace LLRP.Baselines.YarpProxy;

/// <summary>
/// The "full ASP.NET Core + YARP" baseline, set up the way YARP is used and benchmarked: the whole ASP.NET Core stack
/// (<see cref="WebApplication.CreateBuilder(string[])"/>, routing, <c>HttpContext</c>), <c>AddReverseProxy</c> with one
/// catch-all route (<c>{**catch-all}</c>) to one cluster of one destination, default transforms, <c>MapReverseProxy</c>.
/// Keys: <c>urls</c>, <c>downstream</c>, <c>tls.downstreamInsecure</c> (the cluster's <c>DangerousAcceptAnyServerCertificate</c>),
/// <c>downstream.httpVersion</c> (<c>2</c>: the cluster's <c>HttpRequest</c> Version 2 with <c>RequestVersionExact</c>, h2c by
/// prior knowledge to an http:// downstream; unset or <c>1.1</c>: YARP's default).
/// </summary>
public static class YarpProxyHost
{
    private const string ClusterId = "downstream";
    private const string HttpVersionKey = "downstream.httpVersion";

    /// <summary>Builds (does not start) the proxy from command-line arguments and environment variables.</summary>
    /// <exception cref="ArgumentException">A key's value is invalid (see <see cref="BaselineHost.CreateBuilder"/>).</exception>
    public static WebApplication Build(string[] args)
    {
        var (builder, downstreamUri, downstreamInsecure) = BaselineHost.CreateBuilder(args);
        var httpRequest = builder.Configuration[HttpVersionKey] switch
        {
            null or "1.1" => null,
            "2" => new ForwarderRequestConfig { Version = HttpVersion.Version20, VersionPolicy = HttpVersionPolicy.RequestVersionExact },
            var other => throw new ArgumentException($"Invalid configuration: '{HttpVersionKey}' = '{other}'. Allowed: 1.1, 2."),
        };
        builder.Services.AddReverseProxy().LoadFromMemory(
            [new RouteConfig { RouteId = "catch-all", ClusterId = ClusterId, Match = new RouteMatch { Path = "{**catch-all}" } }],
            [new ClusterConfig
            {
                ClusterId = ClusterId,
                Destinations = new Dictionary<string, DestinationConfig> { ["destination"] = new() { Address = downstreamUri.AbsoluteUri } },
                HttpClient = new HttpClientConfig { DangerousAcceptAnyServerCertificate = downstreamInsecure },
                HttpRequest = httpRequest,
            }]);

        var app = builder.Build();
        app.MapReverseProxy();
        return app;
    }
}
