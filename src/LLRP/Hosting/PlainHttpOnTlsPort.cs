using LLRP.Proxy;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Hosting;

/// <summary>
/// Connection middleware before the TLS middleware of an <c>https</c> listener: it peeks at the first byte, consuming
/// nothing. A TLS connection starts with a handshake record (content type 22, 0x16, RFC 8446 §5.1) and goes on to TLS;
/// anything else (plain HTTP sent to the wrong port, most often) is answered 400 saying this port speaks TLS, and closed,
/// where the TLS middleware would drop it without a word.
/// </summary>
internal static class PlainHttpOnTlsPort
{
    private const byte HandshakeRecord = 0x16;

    /// <param name="firstByteTimeout">How long a client may connect without sending anything: the TLS handshake's own timeout.</param>
    public static Func<ConnectionDelegate, ConnectionDelegate> Middleware(TimeSpan firstByteTimeout) => next => async connection =>
    {
        var input = connection.Transport.Input;
        byte first;
        using (var timeout = new CancellationTokenSource(firstByteTimeout))
        {
            try
            {
                var read = await input.ReadAtLeastAsync(1, timeout.Token);
                if (read.Buffer.IsEmpty)
                {
                    input.AdvanceTo(read.Buffer.End);
                    return;
                }

                first = read.Buffer.FirstSpan[0];
                input.AdvanceTo(read.Buffer.Start);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }

        if (first == HandshakeRecord)
        {
            await next(connection);
            return;
        }

        await ConnectionRefusal.AnswerAsync(connection, ErrorResponses.PlainHttpOnTlsPort);
    };
}
