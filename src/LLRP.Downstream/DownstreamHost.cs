using LLRP.Downstream.Grpc;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace LLRP.Downstream;

/// <summary>
/// Builds the bundled origin: a Kestrel app with ASP.NET Core's WebSocket middleware and one terminal middleware that dispatches on the
/// path (see <see cref="RequestDispatcher"/>); gRPC calls go to <see cref="EchoService"/> (served over HTTP/2: h2c where
/// <c>--Kestrel:EndpointDefaults:Protocols=Http2</c>). Configuration comes from the command line and
/// environment variables; with no urls or ports configured it listens on <see cref="DefaultUrls"/>. An <c>https</c> url takes
/// Kestrel's certificate settings, e.g. <c>--Kestrel:Certificates:Default:Path=origin.pfx --Kestrel:Certificates:Default:Password=…</c>.
/// <c>--delayMs=N</c> delays every response by N ms (<see cref="ResponseDelaySetting"/>); <c>--http2MaxStreams=N</c> allows N
/// concurrent streams per HTTP/2 connection (<see cref="Http2StreamLimitSetting"/>).
/// </summary>
public static class DownstreamHost
{
    /// <summary>The listen address when neither <c>urls</c> nor <c>http_ports</c> is configured.</summary>
    public const string DefaultUrls = "http://*:8081";

    /// <summary>Builds (does not start) the origin.</summary>
    /// <param name="args">Command-line style arguments, e.g. <c>--urls=http://127.0.0.1:0</c>.</param>
    /// <exception cref="ArgumentException"><c>delayMs</c> is not an integer in range, <c>http2MaxStreams</c> not a positive integer, or appsettings.json is not valid JSON.</exception>
    public static WebApplication Build(string[] args)
    {
        WebApplicationBuilder builder;
        try
        {
            // The origin reads its settings once, embedded in LLRP's process or not.
            builder = WebApplication.CreateSlimBuilder(HostSettingsWatch.Off(args));
        }
        catch (InvalidDataException e)
        {
            throw new ArgumentException(SettingsFileError.Describe(e), e);
        }

        var unaryCalls = new UnaryCallCounter();
        var dispatcher = new RequestDispatcher(ResponseDelaySetting.Read(builder.Configuration), unaryCalls);
        var http2MaxStreams = Http2StreamLimitSetting.Read(builder.Configuration);
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.Services.AddGrpc();
        builder.Services.AddSingleton(unaryCalls);

        // A failed start is reported once by whoever starts the origin; the host would log it again with its stack trace.
        builder.Logging.AddFilter("Microsoft.Extensions.Hosting.Internal.Host", LogLevel.Critical);
        builder.WebHost.UseSockets();
        builder.WebHost.UseKestrelHttpsConfiguration();
        builder.WebHost.ConfigureKestrel(options =>
        {
            options.AddServerHeader = false;
            options.AllowSynchronousIO = false;
            options.Limits.MaxRequestBodySize = null;
            options.Limits.MinRequestBodyDataRate = null;
            options.Limits.MinResponseDataRate = null;
            if (http2MaxStreams is { } streams)
            {
                options.Limits.Http2.MaxStreamsPerConnection = streams;
            }
        });

        if (!HasConfiguredAddresses(builder.Configuration))
        {
            builder.WebHost.UseUrls(DefaultUrls);
        }

        var app = builder.Build();
        app.UseWebSockets();
        app.MapWhen(IsGrpc, grpc =>
        {
            grpc.UseRouting();
            grpc.UseEndpoints(endpoints => endpoints.MapGrpcService<EchoService>());
        });
        app.Run(dispatcher.HandleAsync);
        return app;
    }

    /// <summary>A gRPC call (gRPC over HTTP/2: <c>content-type: application/grpc</c>, with a subtype or not) goes to <see cref="EchoService"/>.</summary>
    private static bool IsGrpc(HttpContext context)
        => context.Request.ContentType is { } type && type.StartsWith("application/grpc", StringComparison.OrdinalIgnoreCase);

    private static bool HasConfiguredAddresses(IConfiguration configuration) =>
        !string.IsNullOrEmpty(configuration[WebHostDefaults.ServerUrlsKey])
        || !string.IsNullOrEmpty(configuration[WebHostDefaults.HttpPortsKey])
        || !string.IsNullOrEmpty(configuration[WebHostDefaults.HttpsPortsKey]);
}
