using System.Text;

namespace LLRP.Http2.Server;

/// <summary>
/// Strings for the bytes of decoded request fields without a new string each time: the usual field names and methods
/// from fixed tables, and each value compared with the one the same name had in the stream object's previous request
/// (a client repeats its fields from request to request). Used by one stream object at a time.
/// </summary>
internal sealed class FieldStrings
{
    /// <summary>The most names whose last value is kept; past it the cache starts again.</summary>
    private const int Capacity = 64;

    private static readonly Dictionary<string, string>.AlternateLookup<ReadOnlySpan<char>> Names = NamesOf(
        "accept", "accept-charset", "accept-encoding", "accept-language", "authorization", "cache-control", "content-encoding",
        "content-length", "content-type", "cookie", "date", "expect", "forwarded", "from", "grpc-accept-encoding",
        "grpc-encoding", "grpc-timeout", "host", "if-match", "if-modified-since", "if-none-match", "if-range",
        "if-unmodified-since", "max-forwards", "origin", "pragma", "priority", "range", "referer", "te", "user-agent",
        "via", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-request-id", "traceparent", "tracestate",
        "baggage", "grpc-status", "grpc-message", "sec-fetch-dest", "sec-fetch-mode", "sec-fetch-site", "upgrade-insecure-requests",
        "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "CONNECT", "TRACE", "http", "https");

    private readonly Dictionary<string, string> _lastValues = new(StringComparer.Ordinal);

    /// <summary>The name (or method, or scheme) as a string: a shared one when it is a usual one.</summary>
    public static string Intern(ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length <= 32)
        {
            Span<char> chars = stackalloc char[bytes.Length];
            Encoding.Latin1.GetChars(bytes, chars);
            if (Names.TryGetValue(chars, out var known))
            {
                return known;
            }
        }

        return Encoding.Latin1.GetString(bytes);
    }

    /// <summary>The value of field <paramref name="name"/> as a string: the previous request's when the bytes are the same.</summary>
    public string Value(string name, ReadOnlySpan<byte> bytes)
    {
        if (_lastValues.TryGetValue(name, out var last) && Equal(last, bytes))
        {
            return last;
        }

        if (_lastValues.Count >= Capacity)
        {
            _lastValues.Clear();
        }

        var value = Encoding.Latin1.GetString(bytes);
        _lastValues[name] = value;
        return value;
    }

    private static bool Equal(string text, ReadOnlySpan<byte> bytes)
    {
        if (text.Length != bytes.Length)
        {
            return false;
        }

        for (var i = 0; i < bytes.Length; i++)
        {
            if (text[i] != bytes[i])
            {
                return false;
            }
        }

        return true;
    }

    private static Dictionary<string, string>.AlternateLookup<ReadOnlySpan<char>> NamesOf(params string[] names)
        => names.ToDictionary(name => name, StringComparer.Ordinal).GetAlternateLookup<ReadOnlySpan<char>>();
}
