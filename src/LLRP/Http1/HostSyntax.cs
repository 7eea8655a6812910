namespace LLRP.Http1;

/// <summary>Host = uri-host [ ":" port ] (RFC 9110 §7.2, RFC 3986 §3.2.2); an empty value is allowed.</summary>
internal static class HostSyntax
{
    public static bool IsValid(ReadOnlySpan<byte> host)
    {
        if (host.IsEmpty)
        {
            return true;
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
