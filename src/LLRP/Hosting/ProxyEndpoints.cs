using System.Net;
using System.Security.Cryptography.X509Certificates;
using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Http2;
using LLRP.Http2.Server;
using LLRP.Proxy;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Https;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.Hosting;

/// <summary>
/// Binds every address of <c>urls</c> the way Kestrel binds its own urls (<c>localhost</c> on both loopbacks, an address
/// literal as given, any other host on every interface), each with <see cref="ProxyConnectionHandler"/> as its
/// connection handler. An <c>https</c> address first runs Kestrel's TLS middleware with the certificate of
/// <c>tls.certificatePath</c>, offering <c>h2</c> and <c>http/1.1</c> by ALPN, so the handler reads decrypted bytes; plain HTTP
/// sent to it is answered 400 (<see cref="PlainHttpOnTlsPort"/>). HTTP/2 connections (ALPN <c>h2</c>, or the preface in
/// clear text) go to the HTTP/2 server (LLRP's own, or Kestrel's) and the HTTP/2 front end instead (<see cref="ProtocolSelection"/>). With
/// <c>proxyProtocol.accept</c>, every connection first has its PROXY protocol header read (<see cref="ProxyHeaderAcceptance"/>).
/// </summary>
internal static class ProxyEndpoints
{
    /// <summary>How long a client may take over its TLS handshake (Kestrel's default).</summary>
    private static readonly TimeSpan HandshakeTimeout = TimeSpan.FromSeconds(10);

    public static void Listen(KestrelServerOptions kestrel, ProxyOptions options, BoundListeners listeners)
        => Bind(kestrel, options.Urls, (url, listen) =>
        {
            listeners.AddProxy(url, listen);
            var certificate = url.StartsWith("https://", StringComparison.OrdinalIgnoreCase)
                ? options.ServerCertificate ?? throw new InvalidOperationException($"{url} is https, but the options hold no certificate ({nameof(ProxyOptionsReader)} requires one).")
                : null;
            if (options.AcceptProxyProtocol is { } acceptance)
            {
                listen.Use(ProxyHeaderAcceptance.Middleware(acceptance, listen.ApplicationServices.GetRequiredService<ProxyHeaderRefusals>()));
            }

            Configure(listen, certificate, options.RequestHeadersTimeout, options.Http2Server);
        });

    /// <summary>Binds each of the <c>;</c>-separated <paramref name="urls"/> as Kestrel binds its own, configured by <paramref name="configure"/>.</summary>
    public static void Bind(KestrelServerOptions kestrel, string urls, Action<string, ListenOptions> configure)
    {
        foreach (var url in urls.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var address = BindingAddress.Parse(url);
            Action<ListenOptions> listenOptions = listen => configure(url, listen);
            if (address.IsUnixPipe)
            {
                kestrel.ListenUnixSocket(address.UnixPipePath, listenOptions);
            }
            else if (string.Equals(address.Host, "localhost", StringComparison.OrdinalIgnoreCase))
            {
                kestrel.ListenLocalhost(address.Port, listenOptions);
            }
            else if (IPAddress.TryParse(address.Host, out var ip))
            {
                kestrel.Listen(ip, address.Port, listenOptions);
            }
            else
            {
                kestrel.ListenAnyIP(address.Port, listenOptions);
            }
        }
    }

    /// <summary>
    /// Connection middleware runs in the order it is added: the check for plain HTTP, TLS (offering <c>h2</c> and
    /// <c>http/1.1</c>), then the choice of front end (<see cref="ProtocolSelection"/>): HTTP/1.1 to the proxy's own
    /// session, HTTP/2 on to Kestrel's HTTP server, the terminal middleware Kestrel adds to every listener.
    /// </summary>
    private static void Configure(ListenOptions listen, X509Certificate2? certificate, TimeSpan firstBytesTimeout, Http2ServerKind http2Server)
    {
        listen.Protocols = certificate is null ? HttpProtocols.Http2 : HttpProtocols.Http1AndHttp2;
        if (certificate is not null)
        {
            listen.Use(PlainHttpOnTlsPort.Middleware(HandshakeTimeout));
            listen.UseHttps(new HttpsConnectionAdapterOptions
            {
                ServerCertificate = certificate,
                HandshakeTimeout = HandshakeTimeout,
            });
        }

        var http1 = ActivatorUtilities.GetServiceOrCreateInstance<ProxyConnectionHandler>(listen.ApplicationServices);
        var ownServer = http2Server == Http2ServerKind.Llrp ? listen.ApplicationServices.GetRequiredService<Http2Server>() : null;
        listen.Use(ProtocolSelection.Middleware(http1, certificate is not null, firstBytesTimeout, ownServer));
    }
}
