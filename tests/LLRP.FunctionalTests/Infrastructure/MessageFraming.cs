using System.Globalization;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>
/// The message body length rules of RFC 9112 §6.3, applied strictly to what the proxy sends:
/// any framing a correct intermediary must not produce is an <see cref="InvalidDataException"/>.
/// </summary>
public static class MessageFraming
{
    /// <summary>The framing of a request the proxy forwarded.</summary>
    public static BodyFraming OfRequest(HttpHead head, out long contentLength)
    {
        contentLength = ReadContentLength(head);
        if (head.Contains("Transfer-Encoding"))
        {
            return head.Tokens("Transfer-Encoding") is ["chunked"] && contentLength < 0
                ? BodyFraming.Chunked
                : throw new InvalidDataException($"A forwarded request must use Transfer-Encoding: chunked alone (RFC 9112 §6.1):\n{head}");
        }

        return contentLength >= 0 ? BodyFraming.ContentLength : BodyFraming.None;
    }

    /// <summary>The framing of a response the proxy sent, given the request method and the status code.</summary>
    public static BodyFraming OfResponse(HttpHead head, string requestMethod, int statusCode, out long contentLength)
    {
        contentLength = ReadContentLength(head);
        var transferEncoding = head.Tokens("Transfer-Encoding");
        if (transferEncoding.Count > 0 && contentLength >= 0)
        {
            throw new InvalidDataException($"A response must not carry both Content-Length and Transfer-Encoding (RFC 9112 §6.2):\n{head}");
        }

        if (statusCode is < 200 or 204 && (transferEncoding.Count > 0 || contentLength >= 0))
        {
            throw new InvalidDataException($"A 1xx or 204 response must not carry Content-Length or Transfer-Encoding (RFC 9110 §8.6, RFC 9112 §6.1):\n{head}");
        }

        if (requestMethod == "HEAD" || statusCode is < 200 or 204 or 304)
        {
            return BodyFraming.None;
        }

        if (transferEncoding.Count > 0)
        {
            return transferEncoding[^1] == "chunked" ? BodyFraming.Chunked : BodyFraming.CloseDelimited;
        }

        return contentLength >= 0 ? BodyFraming.ContentLength : BodyFraming.CloseDelimited;
    }

    /// <summary>Reads a body framed as <paramref name="framing"/>.</summary>
    public static Task<byte[]> ReadBodyAsync(WireReader reader, BodyFraming framing, long contentLength) =>
        framing switch
        {
            BodyFraming.None => Task.FromResult(Array.Empty<byte>()),
            BodyFraming.ContentLength => reader.ReadExactlyAsync(contentLength),
            BodyFraming.Chunked => reader.ReadChunkedAsync(),
            _ => reader.ReadToEndAsync(),
        };

    private static long ReadContentLength(HttpHead head)
    {
        var values = head.GetAll("Content-Length");
        if (values.Count == 0)
        {
            return -1;
        }

        return values.Count == 1
            && values[0].Length is > 0 and <= 18
            && values[0].All(char.IsAsciiDigit)
            ? long.Parse(values[0], CultureInfo.InvariantCulture)
            : throw new InvalidDataException($"Content-Length must be one decimal number (RFC 9110 §8.6):\n{head}");
    }
}
