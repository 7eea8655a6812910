namespace LLRP.Upstream.HttpClient;

/// <summary>
/// The hop-by-hop fields (RFC 9110 §7.6.1) by name, for headers held as strings (<see cref="HttpResponseMessage"/>,
/// <c>HttpContext</c>): the same set as <see cref="Http1.KnownFields.IsHopByHop"/>, plus the fields a <c>Connection</c> field names.
/// </summary>
internal static class HopByHopNames
{
    public static bool IsHopByHop(string name) => name.Length switch
    {
        2 => Is(name, "TE"),
        7 => Is(name, "Upgrade"),
        10 => Is(name, "Connection") || Is(name, "Keep-Alive"),
        16 => Is(name, "Proxy-Connection"),
        17 => Is(name, "Transfer-Encoding"),
        _ => false,
    };

    public static bool IsContentLength(string name) => Is(name, "Content-Length");

    /// <summary>True when <paramref name="connection"/> (the values of a Connection field) lists <paramref name="name"/> as an option.</summary>
    public static bool IsNamedBy(IEnumerable<string> connection, string name)
    {
        foreach (var value in connection)
        {
            foreach (var range in value.AsSpan().Split(','))
            {
                if (value.AsSpan()[range].Trim(" \t").Equals(name, StringComparison.OrdinalIgnoreCase))
                {
                    return true;
                }
            }
        }

        return false;
    }

    /// <summary>True when a Connection field lists an option other than <c>close</c> and <c>keep-alive</c>, so it names fields to drop.</summary>
    public static bool NamesFields(IEnumerable<string> connection)
    {
        foreach (var value in connection)
        {
            foreach (var range in value.AsSpan().Split(','))
            {
                var option = value.AsSpan()[range].Trim(" \t");
                if (!option.IsEmpty && !option.Equals("close", StringComparison.OrdinalIgnoreCase)
                    && !option.Equals("keep-alive", StringComparison.OrdinalIgnoreCase))
                {
                    return true;
                }
            }
        }

        return false;
    }

    private static bool Is(string name, string known) => string.Equals(name, known, StringComparison.OrdinalIgnoreCase);
}
