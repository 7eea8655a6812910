namespace LLRP.Baselines.HttpClientProxy;

/// <summary>
/// The "full ASP.NET Core + HttpClient" baseline: the whole ASP.NET Core stack (<see cref="WebApplication.CreateBuilder(string[])"/>,
/// Kestrel's HTTP/1.1 server, <c>HttpContext</c>, the middleware pipeline) with one terminal middleware that forwards every
/// request with one shared <see cref="HttpMessageInvoker"/> (<see cref="Forwarder"/>). Keys: <c>urls</c>, <c>downstream</c>, <c>tls.downstreamInsecure</c>.
/// </summary>
public static class HttpClientProxyHost
{
    /// <summary>Builds (does not start) the proxy from command-line arguments and environment variables.</summary>
    /// <exception cref="ArgumentException">A key's value is invalid (see <see cref="BaselineHost.CreateBuilder"/>).</exception>
    public static WebApplication Build(string[] args)
    {
        var (builder, downstream, downstreamInsecure) = BaselineHost.CreateBuilder(args);
        builder.Services.AddSingleton(new Forwarder(downstream, downstreamInsecure));
        var app = builder.Build();
        app.Run(app.Services.GetRequiredService<Forwarder>().ForwardAsync);
        return app;
    }
}
