using System.Net.Security;
using LLRP.Configuration;
using LLRP.Configuration.Routes;

namespace LLRP.Upstream;

/// <summary>
/// How every mode authenticates an <c>https</c> destination: the certificate must be valid for the destination's host name
/// (the system's trust store and name check, through <see cref="DestinationCertificateCheck"/>, which logs why it refuses
/// one), unless <c>tls.downstreamInsecure</c> accepts any certificate. Sessions
/// are resumed across connections to the same host (<see cref="SslClientAuthenticationOptions.AllowTlsResume"/>).
/// </summary>
internal static class DestinationTls
{
    private static readonly List<SslApplicationProtocol> Http11 = [SslApplicationProtocol.Http11];
    private static readonly List<SslApplicationProtocol> Http2 = [SslApplicationProtocol.Http2];
    private static readonly List<SslApplicationProtocol> Http2OrHttp11 = [SslApplicationProtocol.Http2, SslApplicationProtocol.Http11];

    /// <summary>
    /// The options of raw mode's TLS connections to <paramref name="destination"/>: SNI and name check on its host (no SNI for
    /// an address literal), the certificate rule of its cluster, and ALPN as <paramref name="alpn"/> asks (RFC 9113 §3.2):
    /// <c>h2</c> for <see cref="Http2Negotiation.AlpnH2"/>, <c>h2</c> then <c>http/1.1</c> for
    /// <see cref="Http2Negotiation.AlpnH2OrHttp11"/>, otherwise <c>http/1.1</c>.
    /// </summary>
    public static SslClientAuthenticationOptions ClientOptions(DestinationEndpoint destination, Http2Negotiation alpn, DestinationCertificateCheck check) => new()
    {
        TargetHost = destination.Host,
        ApplicationProtocols = alpn switch
        {
            Http2Negotiation.AlpnH2 => Http2,
            Http2Negotiation.AlpnH2OrHttp11 => Http2OrHttp11,
            _ => Http11,
        },
        AllowTlsResume = true,
        RemoteCertificateValidationCallback = Validation(destination.AcceptsAnyCertificate, check),
    };

    /// <summary>
    /// The options of <c>SocketsHttpHandler</c>, which sets the target host and ALPN of each connection itself; without
    /// <paramref name="check"/> (health probes, which report their own failures) a refused certificate is not logged.
    /// </summary>
    public static SslClientAuthenticationOptions HandlerOptions(bool insecure, DestinationCertificateCheck? check = null) => new()
    {
        AllowTlsResume = true,
        RemoteCertificateValidationCallback = Validation(insecure, check),
    };

    private static RemoteCertificateValidationCallback? Validation(bool insecure, DestinationCertificateCheck? check)
        => insecure ? static (_, _, _, _) => true : check is null ? null : check.Validate;
}
