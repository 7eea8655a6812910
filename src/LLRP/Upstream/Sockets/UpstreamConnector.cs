using System.Collections.Concurrent;
using System.Net.Security;
using System.Net.Sockets;
using LLRP.Configuration;
using LLRP.Diagnostics;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// Opens upstream connections within the connect timeout: over <see cref="SocketPipeConnection"/> to an <c>http</c>
/// destination; to an <c>https</c> one, a TLS handshake follows the connect (within the same timeout) and the connection
/// runs over <see cref="SslPipeConnection"/>. A PROXY protocol header goes first, on the TCP connection, before the handshake.
/// </summary>
internal sealed class UpstreamConnector(ProxyOptions options, ProxyMetrics metrics, DestinationCertificateCheck check, FailureLog failures) : IUpstreamConnectionFactory
{
    private readonly TimeSpan _connectTimeout = options.ConnectTimeout;
    private readonly bool _inlineScheduling = options.InlineScheduling;
    private readonly ConcurrentDictionary<DestinationEndpoint, SslClientAuthenticationOptions> _tls = new();
    private readonly Func<DestinationEndpoint, SslClientAuthenticationOptions> _newTls = destination => DestinationTls.ClientOptions(destination, destination.AcceptsAnyCertificate, check);

    /// <exception cref="UpstreamException">Refused, unreachable, timed out, or the TLS handshake failed.</exception>
    public async ValueTask<UpstreamConnection> ConnectAsync(DestinationEndpoint destination, ReadOnlyMemory<byte> proxyHeader)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        using var timeout = new CancellationTokenSource(_connectTimeout);
        try
        {
            await socket.ConnectAsync(destination.EndPoint, timeout.Token);
            if (!proxyHeader.IsEmpty)
            {
                await socket.SendAsync(proxyHeader, SocketFlags.None, timeout.Token);
            }
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

        ConnectionContext transport = destination.IsTls
            ? await AuthenticateAsync(socket, _tls.GetOrAdd(destination, _newTls), timeout.Token)
            : new SocketPipeConnection(socket, _inlineScheduling);
        metrics.UpstreamConnectionOpened();
        return new UpstreamConnection(transport, destination, metrics);
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
                failures.TlsHandshakeFailed(tls.TargetHost ?? "(unknown)", TlsFailureReason.Describe(e));
            }

            await stream.DisposeAsync();
            throw new UpstreamException(ForwarderError.TlsHandshakeFailed, e);
        }

        return new SslPipeConnection(socket, stream, _inlineScheduling);
    }
}
