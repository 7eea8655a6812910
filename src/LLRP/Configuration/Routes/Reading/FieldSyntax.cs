namespace LLRP.Configuration.Routes.Reading;

/// <summary>What a header name and value may be in a route (RFC 9110 §5.1, §5.5), and the fields the proxy owns.</summary>
internal static class FieldSyntax
{
    private static readonly Dictionary<string, string> OwnedRequestFields = new(StringComparer.OrdinalIgnoreCase)
    {
        ["Host"] = "the destination's authority, or the client's with { \"RequestHeaderOriginalHost\": \"true\" }, or the destination's Host",
        ["Content-Length"] = "message framing, recomputed by the proxy (RFC 9112 §6)",
        ["Transfer-Encoding"] = "message framing, recomputed by the proxy (RFC 9112 §6)",
        ["Connection"] = "hop-by-hop, per connection (RFC 9110 §7.6.1)",
        ["Keep-Alive"] = "hop-by-hop, per connection (RFC 9110 §7.6.1)",
        ["Proxy-Connection"] = "hop-by-hop, per connection (RFC 9110 §7.6.1)",
        ["Upgrade"] = "hop-by-hop, negotiated by the proxy (RFC 9110 §7.8, upgrade.protocols)",
        ["TE"] = "hop-by-hop, per connection (RFC 9110 §10.1.4)",
        ["Trailer"] = "describes the framing of the body the proxy sends (RFC 9110 §6.6.2)",
    };

    /// <summary>A token (RFC 9110 §5.6.2): a field name.</summary>
    public static bool IsToken(string value)
        => value.Length > 0 && value.All(c => char.IsAsciiLetterOrDigit(c) || "!#$%&'*+-.^_`|~".Contains(c));

    /// <summary>A field value LLRP writes as is: visible ASCII, spaces and tabs; no CR, LF, NUL nor other control character.</summary>
    public static bool IsFieldValue(string value)
        => value.All(c => c == '\t' || c is >= ' ' and <= '~');

    /// <summary>Why a transform may not touch <paramref name="name"/> (null when it may): the proxy writes those fields itself.</summary>
    public static string? OwnedBy(string name, bool request)
        => (request || !name.Equals("Host", StringComparison.OrdinalIgnoreCase)) && OwnedRequestFields.TryGetValue(name, out var reason) ? reason : null;
}
