using System.Buffers;
using System.Net;
using LLRP.Configuration.Routes;
using LLRP.ProxyProtocol;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Tcp;

/// <summary>
/// Reads the PROXY protocol header a TCP route with <c>AcceptProxyProtocol</c> expects first on each connection: only
/// from its trusted networks, whole within its timeout, valid (<see cref="ProxyHeaderParser"/>); the bytes after it are
/// left in the client's pipe for the relay. Nothing of a refused header is forwarded.
/// </summary>
internal static class ProxyHeaderReader
{
    /// <returns>The header, or why the connection is refused (a reason tag of <c>llrp.tcp.refused_connections</c>, and the detail for the log).</returns>
    public static async ValueTask<(ProxyHeader Header, string? Refused, string? Detail)> ReadAsync(ConnectionContext connection, TcpRouteOptions route)
    {
        if (connection.RemoteEndPoint is not IPEndPoint { Address: var address } || !IsTrusted(address, route.TrustedNetworks))
        {
            return (default, "proxy_header_untrusted", "not from a network of TrustedNetworks");
        }

        var input = connection.Transport.Input;
        using var deadline = new CancellationTokenSource(route.ProxyProtocolTimeout);
        try
        {
            while (true)
            {
                var result = await input.ReadAsync(deadline.Token);
                var buffer = result.Buffer;
                switch (Parse(buffer, out var header, out var error))
                {
                    case ProxyHeaderStatus.Parsed:
                        input.AdvanceTo(buffer.GetPosition(header.Length));
                        return (header, null, null);
                    case ProxyHeaderStatus.Invalid:
                        input.AdvanceTo(buffer.Start, buffer.End);
                        return (default, "proxy_header_invalid", error.ToString());
                    case ProxyHeaderStatus.NeedMore when result.IsCompleted:
                        input.AdvanceTo(buffer.Start, buffer.End);
                        return (default, "proxy_header_truncated", $"the connection ended after {buffer.Length} bytes of it");
                    case ProxyHeaderStatus.NeedMore:
                        input.AdvanceTo(buffer.Start, buffer.End);
                        break;
                }
            }
        }
        catch (OperationCanceledException)
        {
            return (default, "proxy_header_timeout", $"not whole within ProxyProtocolTimeout ({route.ProxyProtocolTimeout.TotalMilliseconds} ms)");
        }
    }

    private static bool IsTrusted(IPAddress address, IReadOnlyList<IPNetwork> networks)
    {
        var client = address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address;
        foreach (var network in networks)
        {
            if (network.Contains(client))
            {
                return true;
            }
        }

        return false;
    }

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
