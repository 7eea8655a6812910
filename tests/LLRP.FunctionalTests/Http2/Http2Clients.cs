using System.Net;

namespace LLRP.FunctionalTests.Http2;

/// <summary>HttpClients that speak HTTP/2 only: h2c with prior knowledge to an http url, ALPN h2 to an https one.</summary>
public static class Http2Clients
{
    public static HttpClient Create() => Create(new SocketsHttpHandler
    {
        UseProxy = false,
        SslOptions = { RemoteCertificateValidationCallback = (_, _, _, _) => true },
    });

    /// <summary>An HTTP/2-only client over <paramref name="handler"/>.</summary>
    public static HttpClient Create(SocketsHttpHandler handler) => new(handler)
    {
        DefaultRequestVersion = HttpVersion.Version20,
        DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        Timeout = Infrastructure.Deadline.Io,
    };
}
