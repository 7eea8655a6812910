namespace LLRP.Baselines.HttpClientProxy;

/// <summary>Fields that describe one connection, not the message (RFC 9110 §7.6.1), and so are never copied across the proxy.</summary>
internal static class HopByHopFields
{
    private static readonly HashSet<string> Names = new(StringComparer.OrdinalIgnoreCase)
    {
        "Connection", "Keep-Alive", "Proxy-Connection", "TE", "Transfer-Encoding", "Upgrade",
    };

    /// <summary>The options of a message's Connection field other than close and keep-alive: the fields it names; null when none.</summary>
    public static string[]? NamedBy(IEnumerable<string?> connection)
    {
        List<string>? named = null;
        foreach (var value in connection)
        {
            foreach (var option in (value ?? string.Empty).Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
            {
                if (!option.Equals("close", StringComparison.OrdinalIgnoreCase) && !option.Equals("keep-alive", StringComparison.OrdinalIgnoreCase))
                {
                    (named ??= []).Add(option);
                }
            }
        }

        return named?.ToArray();
    }

    /// <summary>True for a hop-by-hop field, or one the message's Connection field names.</summary>
    public static bool Contains(string name, string[]? named)
        => Names.Contains(name) || (named is not null && named.Contains(name, StringComparer.OrdinalIgnoreCase));
}
