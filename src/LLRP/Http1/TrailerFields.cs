using System.Buffers;
using System.Collections.Frozen;
using System.Text;

namespace LLRP.Http1;

/// <summary>
/// Which trailer fields the proxy relays, in every direction and on every path. RFC 9110 §6.5.1: a field needed before
/// the content is processed has no meaning in a trailer section — framing (<c>Content-Length</c>,
/// <c>Transfer-Encoding</c>, <c>Trailer</c>), routing (<c>Host</c>), request modifiers (controls and conditionals),
/// authentication, response control data and content format — and the connection-specific fields have none past the
/// hop (RFC 9110 §7.6.1, RFC 9113 §8.2.2). Those are dropped, as is a field whose name is not a token or whose value
/// is not a field value (RFC 9110 §5.1, §5.5); the others are relayed as received.
/// </summary>
internal static class TrailerFields
{
    private static readonly FrozenSet<string> Forbidden = FrozenSet.Create(StringComparer.OrdinalIgnoreCase,
    [
        "content-length", "transfer-encoding", "trailer", "connection", "keep-alive", "proxy-connection", "te", "upgrade",
        "host",
        "cache-control", "expect", "max-forwards", "pragma", "range", "if-match", "if-none-match", "if-modified-since",
        "if-unmodified-since", "if-range",
        "authorization", "proxy-authorization", "www-authenticate", "proxy-authenticate", "authentication-info",
        "proxy-authentication-info", "cookie", "set-cookie",
        "age", "date", "expires", "location", "retry-after", "vary", "warning",
        "content-type", "content-encoding", "content-range",
    ]);

    private static readonly FrozenSet<string>.AlternateLookup<ReadOnlySpan<char>> ForbiddenSpans = Forbidden.GetAlternateLookup<ReadOnlySpan<char>>();

    /// <summary>The longest name in <see cref="Forbidden"/>: a longer one is never forbidden.</summary>
    private const int LongestForbidden = 25;

    /// <summary>What a field value may hold (RFC 9110 §5.5): HTAB, SP, visible ASCII and obs-text (Latin-1 past 0x7F).</summary>
    private static readonly SearchValues<char> ValueCharacters = SearchValues.Create(
        ['\t', .. Enumerable.Range(0x20, 0x5F).Select(c => (char)c), .. Enumerable.Range(0x80, 0x80).Select(c => (char)c)]);

    /// <summary>True when a trailer field named <paramref name="name"/> with <paramref name="value"/> may be relayed.</summary>
    public static bool MayRelay(string name, string? value)
        => name.Length > 0 && IsToken(name) && !Forbidden.Contains(name) && (value ?? string.Empty).AsSpan().IndexOfAnyExcept(ValueCharacters) < 0;

    /// <summary>True when a trailer field of a parsed trailer section (whose syntax the parser checked) may be relayed.</summary>
    public static bool MayRelay(ReadOnlySpan<byte> name)
    {
        if (name.Length > LongestForbidden)
        {
            return true;
        }

        Span<char> chars = stackalloc char[LongestForbidden];
        var length = Encoding.Latin1.GetChars(name, chars);
        return !ForbiddenSpans.Contains(chars[..length]);
    }

    /// <summary>Adds <c>name: value CRLF</c> to <paramref name="lines"/> when the field may be relayed.</summary>
    public static void Append(ArrayBufferWriter<byte> lines, string name, string? value)
    {
        if (MayRelay(name, value))
        {
            FieldLine.Append(lines, name, value);
        }
    }

    /// <summary>
    /// The fields of <paramref name="trailers"/> (an object model's trailers: ASP.NET Core's, or HttpClient's
    /// <c>TrailingHeaders.NonValidated</c>) that may be relayed, as field lines.
    /// </summary>
    public static ArrayBufferWriter<byte> Lines<TValues>(IEnumerable<KeyValuePair<string, TValues>> trailers)
        where TValues : IEnumerable<string?>
    {
        var lines = new ArrayBufferWriter<byte>(256);
        foreach (var (name, values) in trailers)
        {
            foreach (var value in values)
            {
                Append(lines, name, value);
            }
        }

        return lines;
    }

    private static bool IsToken(string name)
    {
        foreach (var c in name)
        {
            if (c > 0x7F || !HttpCharacters.IsToken((byte)c))
            {
                return false;
            }
        }

        return true;
    }
}
