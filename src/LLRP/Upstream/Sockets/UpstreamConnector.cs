using System.Collections.Concurrent;
using System.Net.Security;
using System.Net.Sockets;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// Opens upstream connections within the connect timeout: over <see cref="SocketPipeConnection"/> to an <c>http</c>
/// destination; to an <c>https</c> one, a TLS handshake follows the connect (within the same timeout) and the connection
/// runs over <see cref="SslPipeConnection"/>; for raw mode's own HTTP/2 client, with ALPN <c>h2</c>
/// (<see cref="ConnectHttp2Async"/>). A PROXY protocol header goes first, on the TCP connection, before the handshake.
/// </summary>
internal sealed class UpstreamConnector(ProxyOptions options, ProxyMetrics metrics, DestinationCertificateCheck check, FailureLog failures) : IUpstreamConnectionFactory
{
    private readonly TimeSpan _connectTimeout = options.ConnectTimeout;
    private readonly bool _inlineScheduling = options.InlineScheduling;
    /// <summary>The TLS options of each destination, per what ALPN offers it (HTTP/1.1, or HTTP/2 for the own HTTP/2 client).</summary>
    private readonly ConcurrentDictionary<(DestinationEndpoint Destination, Http2Negotiation Alpn), SslClientAuthenticationOptions> _tls = new();
    private readonly Func<(DestinationEndpoint Destination, Http2Negotiation Alpn), SslClientAuthenticationOptions> _newTls = key => DestinationTls.ClientOptions(key.Destination, key.Alpn, check);

    /// <exception cref="UpstreamException">Refused, unreachable, timed out, or the TLS handshake failed.</exception>
    public async ValueTask<UpstreamConnection> ConnectAsync(DestinationEndpoint destination, ReadOnlyMemory<byte> proxyHeader)
        => (await ConnectAsync(destination, proxyHeader, destination.IsTls ? _tls.GetOrAdd((destination, Http2Negotiation.None), _newTls) : null)).Connection;

    /// <summary>
    /// Opens a TLS connection to an <c>https</c> destination for HTTP/2 (RFC 9113 §3.2), within the connect timeout: ALPN
    /// offers <c>h2</c>, and <c>http/1.1</c> after it when <paramref name="offersHttp11"/>; the same certificate rules as
    /// <see cref="ConnectAsync"/>.
    /// </summary>
    /// <returns>The connection, and whether the destination chose <c>h2</c>.</returns>
    /// <exception cref="UpstreamException">Refused, unreachable, timed out, or the TLS handshake failed.</exception>
    public async ValueTask<(UpstreamConnection Connection, bool Http2)> ConnectHttp2Async(DestinationEndpoint destination, bool offersHttp11)
    {
        var tls = _tls.GetOrAdd((destination, offersHttp11 ? Http2Negotiation.AlpnH2OrHttp11 : Http2Negotiation.AlpnH2), _newTls);
        var (connection, protocol) = await ConnectAsync(destination, default, tls);
        return (connection, protocol == SslApplicationProtocol.Http2);
    }

    /// <summary>
    /// Connects within the connect timeout, sends the PROXY protocol header if any, then the TLS handshake when
    /// <paramref name="tls"/> is given; counted in the metrics.
    /// </summary>
    /// <returns>The connection, and the protocol ALPN chose (none over plain TCP).</returns>
    private async ValueTask<(UpstreamConnection Connection, SslApplicationProtocol Protocol)> ConnectAsync(
        DestinationEndpoint destination, ReadOnlyMemory<byte> proxyHeader, SslClientAuthenticationOptions? tls)
    {
        using var timeout = new CancellationTokenSource(_connectTimeout);
        var socket = await ConnectSocketAsync(destination, proxyHeader, timeout.Token);
        var secure = tls is null ? null : await AuthenticateAsync(socket, tls, timeout.Token);
        ConnectionContext transport = secure is null ? new SocketPipeConnection(socket, _inlineScheduling) : secure;
        metrics.UpstreamConnectionOpened();
        return (new UpstreamConnection(transport, destination, metrics), secure?.ApplicationProtocol ?? default);
    }

    /// <summary>Connects a socket to <paramref name="destination"/> and sends the PROXY protocol header, if any.</summary>
    private static async ValueTask<Socket> ConnectSocketAsync(DestinationEndpoint destination, ReadOnlyMemory<byte> proxyHeader, CancellationToken timeout)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(destination.EndPoint, timeout);
            if (!proxyHeader.IsEmpty)
            {
                await socket.SendAsync(proxyHeader, SocketFlags.None, timeout);
            }

            return socket;
        }
        catch (OperationCanceledException e)
        {
            socket.Dispose();
            throw new UpstreamException(ForwarderError.ConnectTimeout, e);
        }
        catch (SocketException e)
        {
            socket.Dispose();
            throw new UpstreamException(ForwarderError.ConnectFailed, e);
        }
    }

    private async ValueTask<SslPipeConnection> AuthenticateAsync(Socket socket, SslClientAuthenticationOptions tls, CancellationToken cancellationToken)
    {
        var stream = new SslStream(new NetworkStream(socket, ownsSocket: true));
        try
        {
            await stream.AuthenticateAsClientAsync(tls, cancellationToken);
        }
        catch (OperationCanceledException e)
        {
            await stream.DisposeAsync();
            throw new UpstreamException(ForwarderError.ConnectTimeout, e);
        }
        catch (Exception e)
        {
            // Refused (AuthenticationException), cut (IOException) or anything else: the stream and its socket go. A refused
            // certificate was logged with its reason by the check; any other failure is logged here.
            if (!check.Refused(stream))
            {
                failures.TlsHandshakeFailed(tls.TargetHost ?? "(unknown)", TlsFailureReason.Describe(e, tls.ApplicationProtocols));
            }

            await stream.DisposeAsync();
            throw new UpstreamException(ForwarderError.TlsHandshakeFailed, e);
        }

        return new SslPipeConnection(socket, stream, _inlineScheduling);
    }
}
