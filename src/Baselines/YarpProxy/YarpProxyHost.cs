using Yarp.ReverseProxy.Configuration;

namespace LLRP.Baselines.YarpProxy;

/// <summary>
/// The "full ASP.NET Core + YARP" baseline, set up the way YARP is used and benchmarked: the whole ASP.NET Core stack
/// (<see cref="WebApplication.CreateBuilder(string[])"/>, routing, <c>HttpContext</c>), <c>AddReverseProxy</c> with one
/// catch-all route (<c>{**catch-all}</c>) to one cluster of one destination, default transforms, <c>MapReverseProxy</c>.
/// Keys: <c>urls</c>, <c>downstream</c>.
/// </summary>
public static class YarpProxyHost
{
    public const string DefaultUrls = "http://*:5000";
    public const string DefaultDownstream = "http://localhost:8081";

    private const string ClusterId = "downstream";

    /// <summary>Builds (does not start) the proxy from command-line arguments and environment variables.</summary>
    /// <exception cref="ArgumentException"><c>downstream</c> is not an absolute http:// URI.</exception>
    public static WebApplication Build(string[] args)
    {
        var builder = WebApplication.CreateBuilder(args);
        var downstream = builder.Configuration["downstream"] ?? DefaultDownstream;
        if (!Uri.TryCreate(downstream, UriKind.Absolute, out var downstreamUri) || downstreamUri.Scheme != Uri.UriSchemeHttp)
        {
            throw new ArgumentException($"Invalid configuration: 'downstream' = '{downstream}'. Allowed: one absolute http:// URI.");
        }

        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.WebHost.UseUrls(builder.Configuration["urls"] ?? DefaultUrls);
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.AddServerHeader = false;
            kestrel.Limits.MaxRequestBodySize = null;
        });
        builder.Services.AddReverseProxy().LoadFromMemory(
            [new RouteConfig { RouteId = "catch-all", ClusterId = ClusterId, Match = new RouteMatch { Path = "{**catch-all}" } }],
            [new ClusterConfig
            {
                ClusterId = ClusterId,
                Destinations = new Dictionary<string, DestinationConfig> { ["destination"] = new() { Address = downstreamUri.AbsoluteUri } },
            }]);

        var app = builder.Build();
        app.MapReverseProxy();
        return app;
    }
}
