namespace LLRP.Configuration;

/// <summary>
/// Kestrel's hosts that listen on every interface (<c>*</c>, <c>+</c>, <c>0.0.0.0</c>, <c>[::]</c>), and the loopback
/// address that reaches a server listening on one.
/// </summary>
internal static class WildcardHosts
{
    private static readonly (string Wildcard, string Loopback)[] Hosts =
        [("*", "127.0.0.1"), ("+", "127.0.0.1"), ("0.0.0.0", "127.0.0.1"), ("[::]", "[::1]")];

    /// <summary><paramref name="url"/> with its wildcard host replaced by loopback; null when its host is not a wildcard.</summary>
    public static string? ToLoopback(string url)
    {
        var hostStart = url.IndexOf("://", StringComparison.Ordinal) + 3;
        if (hostStart < 3)
        {
            return null;
        }

        foreach (var (wildcard, loopback) in Hosts)
        {
            var hostEnd = hostStart + wildcard.Length;
            if (string.CompareOrdinal(url, hostStart, wildcard, 0, wildcard.Length) == 0
                && (hostEnd == url.Length || url[hostEnd] is ':' or '/'))
            {
                return string.Concat(url.AsSpan(0, hostStart), loopback, url.AsSpan(hostEnd));
            }
        }

        return null;
    }
}
