namespace LLRP.Http1;

/// <summary>
/// Host = uri-host [ ":" port ] (RFC 9110 §7.2, RFC 3986 §3.2.2) for an <c>http</c> or <c>https</c> target, whose host
/// must not be empty (RFC 9110 §4.2.1: a recipient MUST reject such a URI as invalid): an empty value, or a port alone, is not valid.
/// </summary>
internal static class HostSyntax
{
    public static bool IsValid(ReadOnlySpan<byte> host)
    {
        if (host.IsEmpty || host[0] == (byte)':')
        {
            return false;
        }

        int portStart;
        if (host[0] == (byte)'[')
        {
            var close = host.IndexOf((byte)']');
            if (close < 2 || !IsIpLiteral(host[1..close]))
            {
                return false;
            }

            portStart = close + 1;
        }
        else
        {
            var colon = host.IndexOf((byte)':');
            portStart = colon < 0 ? host.Length : colon;
            if (!IsRegName(host[..portStart]))
            {
                return false;
            }
        }

        var rest = host[portStart..];
        return rest.IsEmpty || (rest[0] == (byte)':' && rest[1..].IndexOfAnyExceptInRange((byte)'0', (byte)'9') < 0);
    }

    /// <summary>reg-name = *( unreserved / pct-encoded / sub-delims ); IPv4 addresses are a subset.</summary>
    private static bool IsRegName(ReadOnlySpan<byte> name)
    {
        foreach (var value in name)
        {
            if (!char.IsAsciiLetterOrDigit((char)value) && "-._~%!$&'()*+,;="u8.IndexOf(value) < 0)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>IPv6address or IPvFuture inside brackets: hex digits, ':', '.', and IPvFuture's 'v' form.</summary>
    private static bool IsIpLiteral(ReadOnlySpan<byte> literal)
    {
        foreach (var value in literal)
        {
            if (!char.IsAsciiHexDigit((char)value) && value is not ((byte)':' or (byte)'.' or (byte)'v' or (byte)'V'))
            {
                return false;
            }
        }

        return true;
    }
}
