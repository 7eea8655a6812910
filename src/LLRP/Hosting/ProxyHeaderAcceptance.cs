using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.ProxyProtocol;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Hosting;

/// <summary>
/// Connection middleware first on a proxy listener with <c>proxyProtocol.accept</c>, before TLS and the choice of front
/// end, so HTTP/1.1, h2c and TLS connections alike: it reads the PROXY protocol header (<see cref="ProxyHeaderReader"/>),
/// consuming exactly its bytes, and makes the address it carries the connection's remote end point (and the address the
/// client connected to its local one), which X-Forwarded-For, the access log, the failure log, the PROXY header sent on
/// and Kestrel's HTTP/2 streams read; its ALPN and authority TLVs become the connection's <see cref="ProxyHeaderFeature"/>. A LOCAL command or an UNKNOWN/UNSPEC family keeps the connection's own addresses
/// (proxy-protocol.txt §2.1, §2.2). A connection from outside the trusted networks, or whose header is missing, malformed,
/// cut or late, is closed without a byte read past it or forwarded: a receiver must not guess whether a header is there
/// (§2), so an untrusted peer is refused, not passed through (HAProxy's <c>accept-proxy</c> refuses alike).
/// </summary>
internal static class ProxyHeaderAcceptance
{
    public static Func<ConnectionDelegate, ConnectionDelegate> Middleware(ProxyProtocolAcceptance acceptance, ProxyHeaderRefusals refusals) => next => async connection =>
    {
        var (header, refused, detail) = await ProxyHeaderReader.ReadAsync(connection, acceptance.TrustedNetworks, acceptance.Timeout);
        if (refused is not null)
        {
            refusals.Refused(connection.RemoteEndPoint, refused, detail!);
            return;
        }

        if (header.Source is { } source)
        {
            connection.RemoteEndPoint = source;
            connection.LocalEndPoint = header.Destination;
        }

        connection.Features.Set(new ProxyHeaderFeature(header.Alpn, header.Authority));

        await next(connection);
    };
}
