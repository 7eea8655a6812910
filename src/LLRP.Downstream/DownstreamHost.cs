using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Logging;

namespace LLRP.Downstream;

/// <summary>
/// Builds the bundled origin: a Kestrel app with ASP.NET Core's WebSocket middleware and one terminal middleware that dispatches on the
/// path (see <see cref="RequestDispatcher"/>). Configuration comes from the command line and
/// environment variables; with no urls or ports configured it listens on <see cref="DefaultUrls"/>. An <c>https://</c> url
/// takes its certificate from Kestrel's configuration (<c>Kestrel:Certificates:Default:Path</c> and <c>:Password</c>), which the
/// slim builder reads only once <c>UseKestrelHttpsConfiguration</c> is called.
/// </summary>
public static class DownstreamHost
{
    /// <summary>The listen address when neither <c>urls</c> nor <c>http_ports</c> is configured.</summary>
    public const string DefaultUrls = "http://*:8081";

    /// <summary>Builds (does not start) the origin.</summary>
    /// <param name="args">Command-line style arguments, e.g. <c>--urls=http://127.0.0.1:0</c>.</param>
    public static WebApplication Build(string[] args)
    {
        var builder = WebApplication.CreateSlimBuilder(args);
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.WebHost.UseSockets();
        builder.WebHost.UseKestrelHttpsConfiguration();
        builder.WebHost.ConfigureKestrel(options =>
        {
            options.AddServerHeader = false;
            options.AllowSynchronousIO = false;
            options.Limits.MaxRequestBodySize = null;
            options.Limits.MinRequestBodyDataRate = null;
            options.Limits.MinResponseDataRate = null;
        });

        if (!HasConfiguredAddresses(builder.Configuration))
        {
            builder.WebHost.UseUrls(DefaultUrls);
        }

        var app = builder.Build();
        app.UseWebSockets();
        app.Run(RequestDispatcher.HandleAsync);
        return app;
    }

    private static bool HasConfiguredAddresses(IConfiguration configuration) =>
        !string.IsNullOrEmpty(configuration[WebHostDefaults.ServerUrlsKey])
        || !string.IsNullOrEmpty(configuration[WebHostDefaults.HttpPortsKey])
        || !string.IsNullOrEmpty(configuration[WebHostDefaults.HttpsPortsKey]);
}
