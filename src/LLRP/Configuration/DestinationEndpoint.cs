using System.Net;
using System.Text;
using LLRP.Configuration.Routes;

namespace LLRP.Configuration;

/// <summary>One downstream base URI, pre-encoded for the request path.</summary>
public sealed class DestinationEndpoint
{
    private DestinationEndpoint(Uri uri)
    {
        Uri = uri;
        IsTls = uri.Scheme == Uri.UriSchemeHttps;
        IsTcp = uri.Scheme == TcpScheme;
        Host = uri.IdnHost;
        Port = uri.Port;
        Authority = Encoding.ASCII.GetBytes(uri.IsDefaultPort ? uri.Host : $"{uri.Host}:{uri.Port}");
        var prefix = uri.AbsolutePath.TrimEnd('/');
        PathPrefix = Encoding.ASCII.GetBytes(prefix);
        Origin = uri.GetLeftPart(UriPartial.Authority);
        EndPoint = IPAddress.TryParse(Host, out var address) ? new IPEndPoint(address, Port) : new DnsEndPoint(Host, Port);
    }

    /// <summary>The scheme of a TCP route's destination: <c>tcp://host:port</c>, whose connections carry bytes, not requests.</summary>
    public const string TcpScheme = "tcp";

    public Uri Uri { get; }

    /// <summary>True for a <c>tcp://host:port</c> destination, which only a TCP route's cluster has.</summary>
    public bool IsTcp { get; }

    /// <summary>
    /// Any certificate of this <c>https</c> destination is accepted: its cluster's
    /// <c>HttpClient:DangerousAcceptAnyServerCertificate</c> (raw mode; the modes over HttpClient take <c>tls.downstreamInsecure</c>).
    /// </summary>
    public bool AcceptsAnyCertificate { get; private init; }

    /// <summary>
    /// The PROXY protocol header each raw-mode connection to this <c>http(s)</c> destination starts with, before any TLS: its
    /// cluster's <c>Metadata:Llrp.ProxyProtocol</c>; such a connection serves one client connection only.
    /// </summary>
    public ProxyProtocolVersion ProxyProtocol { get; private init; }

    /// <summary>True for an <c>https</c> downstream: its connections run TLS, with the host name checked against its certificate.</summary>
    public bool IsTls { get; }

    /// <summary>Host name or address literal to connect to (brackets removed for IPv6).</summary>
    public string Host { get; }

    public int Port { get; }

    /// <summary>Where to connect: an address literal, or a name resolved at each connect (all addresses tried in turn).</summary>
    public EndPoint EndPoint { get; }

    /// <summary>The authority as sent in <c>Host</c> (RFC 9110 §7.2): host, plus the port when it is not the scheme's default (80, 443).</summary>
    public byte[] Authority { get; }

    /// <summary>The scheme and authority, without a trailing '/': what request URIs start with, and what YARP calls the destination prefix.</summary>
    public string Origin { get; }

    /// <summary>Path prefix put before every forwarded request target; empty for "/", never ends with '/'.</summary>
    public byte[] PathPrefix { get; }

    /// <summary>Parses an absolute <c>http</c> or <c>https</c> URI without query, fragment or user info; returns null when it is not one.</summary>
    public static DestinationEndpoint? TryParse(string value)
    {
        if (!Uri.TryCreate(value.Trim(), UriKind.Absolute, out var uri)
            || (uri.Scheme != Uri.UriSchemeHttp && uri.Scheme != Uri.UriSchemeHttps)
            || uri.Query.Length != 0
            || uri.Fragment.Length != 0
            || uri.UserInfo.Length != 0)
        {
            return null;
        }

        return new DestinationEndpoint(uri);
    }

    /// <summary>Parses <c>tcp://host:port</c> (the port given, no path, query or user info); returns null when it is not one.</summary>
    public static DestinationEndpoint? TryParseTcp(string value)
        => Uri.TryCreate(value.Trim(), UriKind.Absolute, out var uri)
           && uri.Scheme == TcpScheme
           && uri.Port is > 0 and <= 65535
           && uri.AbsolutePath is "/" or ""
           && uri.Query.Length == 0
           && uri.Fragment.Length == 0
           && uri.UserInfo.Length == 0
           && !value.TrimEnd().EndsWith('/')
            ? new DestinationEndpoint(uri)
            : null;

    /// <summary>The same destination, with any certificate accepted (<see cref="AcceptsAnyCertificate"/>).</summary>
    public DestinationEndpoint AcceptingAnyCertificate() => new(Uri) { AcceptsAnyCertificate = true, ProxyProtocol = ProxyProtocol };

    /// <summary>The same destination, its connections starting with the PROXY protocol header of <paramref name="version"/> (<see cref="ProxyProtocol"/>).</summary>
    public DestinationEndpoint SendingProxyProtocol(ProxyProtocolVersion version) => new(Uri) { AcceptsAnyCertificate = AcceptsAnyCertificate, ProxyProtocol = version };

    public override string ToString() => Uri.ToString();
}
