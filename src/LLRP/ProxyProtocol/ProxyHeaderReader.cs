using System.Buffers;
using System.Net;
using LLRP.Configuration;
using Microsoft.AspNetCore.Connections;

namespace LLRP.ProxyProtocol;

/// <summary>
/// Reads the PROXY protocol header a listener that accepts it (a TCP route with <c>AcceptProxyProtocol</c>, the proxy's
/// urls with <c>proxyProtocol.accept</c>) expects first on each connection: only from its trusted networks, whole within
/// its timeout, valid (<see cref="ProxyHeaderParser"/>); exactly its bytes are consumed, and the bytes after it are left
/// in the connection's pipe for whatever reads next (a relay, TLS, HTTP). Nothing of a refused header is forwarded.
/// </summary>
internal static class ProxyHeaderReader
{
    /// <param name="trusted">The networks whose connections may carry a header; any other connection is refused unread.</param>
    /// <param name="timeout">How long the whole header may take to arrive.</param>
    /// <returns>The header, or why the connection is refused (a reason tag of the refusal metrics, and the detail for the log).</returns>
    public static async ValueTask<(ProxyHeader Header, string? Refused, string? Detail)> ReadAsync(ConnectionContext connection, IReadOnlyList<IPNetwork> trusted, TimeSpan timeout)
    {
        if (!Trusted(connection.RemoteEndPoint, trusted))
        {
            return (default, Untrusted.Refused, Untrusted.Detail);
        }

        var input = connection.Transport.Input;
        using var deadline = new CancellationTokenSource(timeout);
        try
        {
            while (true)
            {
                var result = await input.ReadAsync(deadline.Token);
                var buffer = result.Buffer;
                var status = Parse(buffer, out var header, out var error);
                if (status == ProxyHeaderStatus.Parsed)
                {
                    input.AdvanceTo(buffer.GetPosition(header.Length));
                    return (header, null, null);
                }

                input.AdvanceTo(buffer.Start, buffer.End);
                if (Refusal(status, error, result.IsCompleted, buffer.Length) is { } refusal)
                {
                    return (default, refusal.Refused, refusal.Detail);
                }
            }
        }
        catch (OperationCanceledException)
        {
            return (default, TimedOut(timeout).Refused, TimedOut(timeout).Detail);
        }
    }

    /// <summary>A connection from outside the trusted networks is refused unread.</summary>
    public static (string Refused, string Detail) Untrusted => ("proxy_header_untrusted", "not from a trusted network");

    /// <summary>Whether <paramref name="remote"/> is in one of the trusted networks, and so may send a header.</summary>
    public static bool Trusted(EndPoint? remote, IReadOnlyList<IPNetwork> trusted)
        => remote is IPEndPoint { Address: var address } && NetworkSyntax.Contains(trusted, address);

    /// <summary>The header did not arrive whole within <paramref name="timeout"/>.</summary>
    public static (string Refused, string Detail) TimedOut(TimeSpan timeout) => ("proxy_header_timeout", $"not whole within {timeout.TotalMilliseconds} ms");

    /// <summary>Why a header that did not parse is refused, or null when more bytes may still make it whole.</summary>
    /// <param name="status">What the parser said of the bytes so far.</param>
    /// <param name="ended">Whether the connection ended after them.</param>
    /// <param name="received">How many bytes came.</param>
    public static (string Refused, string Detail)? Refusal(ProxyHeaderStatus status, ProxyHeaderError error, bool ended, long received) => status switch
    {
        ProxyHeaderStatus.Invalid => ("proxy_header_invalid", error.ToString()),
        ProxyHeaderStatus.NeedMore when ended => ("proxy_header_truncated", $"the connection ended after {received} bytes of it"),
        _ => null,
    };

    /// <summary>Parses the buffer's first bytes, at most <see cref="ProxyHeaderParser.MaxLength"/>, copied together when they span segments.</summary>
    private static ProxyHeaderStatus Parse(in ReadOnlySequence<byte> buffer, out ProxyHeader header, out ProxyHeaderError error)
    {
        if (buffer.IsSingleSegment)
        {
            return ProxyHeaderParser.TryParse(buffer.FirstSpan, out header, out error);
        }

        Span<byte> copy = stackalloc byte[ProxyHeaderParser.MaxLength];
        var length = (int)Math.Min(buffer.Length, copy.Length);
        buffer.Slice(0, length).CopyTo(copy);
        return ProxyHeaderParser.TryParse(copy[..length], out header, out error);
    }
}
