using System.Globalization;
using System.Text;

namespace LLRP.Bench.Load;

/// <summary>
/// Finds the end of one HTTP/1.1 response among the bytes received so far, enough for the small answer to a GET
/// of an idle connection: a head, then Content-Length bytes, or a chunked body up to a last chunk without trailers;
/// with neither, the response ends with its head.
/// </summary>
public static class ResponseFraming
{
    private static readonly byte[] _headEnd = "\r\n\r\n"u8.ToArray();
    private static readonly byte[] _lastChunk = "0\r\n\r\n"u8.ToArray();

    /// <summary>True when <paramref name="received"/> holds a whole response.</summary>
    /// <param name="received">Everything read from the connection so far.</param>
    /// <param name="status">The status code once the head is in; 0 before.</param>
    /// <exception cref="InvalidDataException">The head is not an HTTP/1.x response head.</exception>
    public static bool IsComplete(ReadOnlySpan<byte> received, out int status)
    {
        status = 0;
        var headLength = received.IndexOf(_headEnd);
        if (headLength < 0)
        {
            return false;
        }

        var lines = Encoding.Latin1.GetString(received[..headLength]).Split("\r\n");
        var statusLine = lines[0].Split(' ');
        if (statusLine.Length < 2
            || !statusLine[0].StartsWith("HTTP/1.", StringComparison.Ordinal)
            || !int.TryParse(statusLine[1], NumberStyles.None, CultureInfo.InvariantCulture, out status))
        {
            throw new InvalidDataException($"not an HTTP/1.x status line: '{lines[0]}'");
        }

        var body = received[(headLength + _headEnd.Length)..];
        foreach (var line in lines.Skip(1))
        {
            var colon = line.IndexOf(':', StringComparison.Ordinal);
            var name = colon < 0 ? line : line[..colon].Trim();
            var value = colon < 0 ? "" : line[(colon + 1)..].Trim();
            if (name.Equals("Content-Length", StringComparison.OrdinalIgnoreCase))
            {
                return long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var length)
                    ? body.Length >= length
                    : throw new InvalidDataException($"invalid Content-Length '{value}'");
            }

            if (name.Equals("Transfer-Encoding", StringComparison.OrdinalIgnoreCase) && value.EndsWith("chunked", StringComparison.OrdinalIgnoreCase))
            {
                return body.EndsWith(_lastChunk);
            }
        }

        return true;
    }
}
