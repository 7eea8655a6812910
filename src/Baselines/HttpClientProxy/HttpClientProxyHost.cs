namespace LLRP.Baselines.HttpClientProxy;

/// <summary>
/// The "full ASP.NET Core + HttpClient" baseline: the whole ASP.NET Core stack (<see cref="WebApplication.CreateBuilder(string[])"/>,
/// Kestrel's HTTP/1.1 server, <c>HttpContext</c>, the middleware pipeline) with one terminal middleware that forwards every
/// request with one shared <see cref="HttpMessageInvoker"/> (<see cref="Forwarder"/>). Keys: <c>urls</c>, <c>downstream</c>.
/// </summary>
public static class HttpClientProxyHost
{
    public const string DefaultUrls = "http://*:5000";
    public const string DefaultDownstream = "http://localhost:8081";

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
        builder.Services.AddSingleton(new Forwarder(downstreamUri));

        var app = builder.Build();
        app.Run(app.Services.GetRequiredService<Forwarder>().ForwardAsync);
        return app;
    }
}
