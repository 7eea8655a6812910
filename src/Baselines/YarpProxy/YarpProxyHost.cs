using Yarp.ReverseProxy.Configuration;

namespace LLRP.Baselines.YarpProxy;

/// <summary>
/// The "full ASP.NET Core + YARP" baseline, set up the way YARP is used and benchmarked: the whole ASP.NET Core stack
/// (<see cref="WebApplication.CreateBuilder(string[])"/>, routing, <c>HttpContext</c>), <c>AddReverseProxy</c> with one
/// catch-all route (<c>{**catch-all}</c>) to one cluster of one destination, default transforms, <c>MapReverseProxy</c>.
/// Keys: <c>urls</c>, <c>downstream</c>, <c>tls.downstreamInsecure</c> (the cluster's <c>DangerousAcceptAnyServerCertificate</c>).
/// </summary>
public static class YarpProxyHost
{
    private const string ClusterId = "downstream";

    /// <summary>Builds (does not start) the proxy from command-line arguments and environment variables.</summary>
    /// <exception cref="ArgumentException">A key's value is invalid (see <see cref="BaselineHost.CreateBuilder"/>).</exception>
    public static WebApplication Build(string[] args)
    {
        var (builder, downstreamUri, downstreamInsecure) = BaselineHost.CreateBuilder(args);
        builder.Services.AddReverseProxy().LoadFromMemory(
            [new RouteConfig { RouteId = "catch-all", ClusterId = ClusterId, Match = new RouteMatch { Path = "{**catch-all}" } }],
            [new ClusterConfig
            {
                ClusterId = ClusterId,
                Destinations = new Dictionary<string, DestinationConfig> { ["destination"] = new() { Address = downstreamUri.AbsoluteUri } },
                HttpClient = new HttpClientConfig { DangerousAcceptAnyServerCertificate = downstreamInsecure },
            }]);

        var app = builder.Build();
        app.MapReverseProxy();
        return app;
    }
}
