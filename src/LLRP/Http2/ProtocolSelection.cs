using System.Buffers;
using System.Net.Security;
using LLRP.Http2.Server;
using LLRP.Proxy;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Server.Kestrel.Core.Features;

namespace LLRP.Http2;

/// <summary>
/// Connection middleware of a proxy listener, last before Kestrel's own HTTP server: a connection that speaks HTTP/2 —
/// ALPN <c>h2</c> over TLS, or, in clear text, one that opens with the connection preface (h2c with prior knowledge,
/// RFC 9113 §3.3) — goes on to the HTTP/2 server (LLRP's own, or Kestrel's with <c>http2.server=kestrel</c>), whose
/// requests reach <see cref="Http2FrontEnd"/>; every other
/// connection is the HTTP/1.1 front end's, on its own parser, as before. Peeking consumes nothing; an HTTP/1.1 request
/// is told apart at its first bytes (at the first, unless its method starts with <c>P</c>). Both count against
/// <c>limits.maxClientConnections</c>.
/// </summary>
internal static class ProtocolSelection
{
    /// <summary>The connection item that marks a proxy listener's HTTP/2 connection, so its requests reach the HTTP/2 front end and nothing else.</summary>
    public const string ProxyConnectionItem = "llrp.http2";

    private static ReadOnlySpan<byte> Preface => "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8;

    /// <param name="http1">The HTTP/1.1 front end.</param>
    /// <param name="tls">The listener runs TLS before this middleware: the protocol is the one ALPN chose.</param>
    /// <param name="firstBytesTimeout">How long a clear-text client may take to send enough bytes to tell (the request head's timeout); then it is HTTP/1.1's.</param>
    /// <param name="ownServer">LLRP's own HTTP/2 server (<c>http2.server=llrp</c>), which then runs HTTP/2 connections instead of Kestrel's; null for Kestrel's.</param>
    public static Func<ConnectionDelegate, ConnectionDelegate> Middleware(ProxyConnectionHandler http1, bool tls, TimeSpan firstBytesTimeout, Http2Server? ownServer = null) => next => async connection =>
    {
        // Counted against limits.maxClientConnections and among the open connections whichever protocol it speaks, and
        // refused at once when over the limit.
        if (!http1.TryEnter())
        {
            await http1.RefuseAsync(connection);
            return;
        }

        try
        {
            var http2 = tls
                ? connection.Features.Get<ITlsApplicationProtocolFeature>()?.ApplicationProtocol.Span.SequenceEqual(SslApplicationProtocol.Http2.Protocol.Span) == true
                : await OpensWithPrefaceAsync(connection, firstBytesTimeout);
            if (!http2)
            {
                await http1.RunSessionAsync(connection);
                return;
            }

            if (ownServer is not null)
            {
                await ownServer.RunAsync(connection, tls);
                return;
            }

            connection.Items[ProxyConnectionItem] = true;
            await next(connection);
        }
        finally
        {
            http1.Leave();
        }
    };

    /// <summary>Reads until the bytes received either are the preface or cannot be; consumes nothing.</summary>
    private static async ValueTask<bool> OpensWithPrefaceAsync(ConnectionContext connection, TimeSpan timeout)
    {
        var input = connection.Transport.Input;
        using var deadline = new CancellationTokenSource(timeout);
        var start = new byte[Preface.Length];
        try
        {
            while (true)
            {
                var read = await input.ReadAsync(deadline.Token);
                var buffer = read.Buffer;
                var length = (int)Math.Min(buffer.Length, Preface.Length);
                buffer.Slice(0, length).CopyTo(start);
                var matches = start.AsSpan(0, length).SequenceEqual(Preface[..length]);
                if (!matches || length == Preface.Length || read.IsCompleted)
                {
                    input.AdvanceTo(buffer.Start);
                    return matches && length == Preface.Length;
                }

                input.AdvanceTo(buffer.Start, buffer.End);
            }
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }
}
