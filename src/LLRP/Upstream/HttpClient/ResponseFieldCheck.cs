using System.Net;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// HttpClient accepts framing fields that raw mode's response parser rejects (RFC 9112 §6.1, §6.3), and then reads the
/// body by a length the client would not be told. A response whose framing is anything but unambiguous is a 502, as in raw mode.
/// </summary>
internal static class ResponseFieldCheck
{
    /// <summary>
    /// True when the body's length is unambiguous: one Content-Length that HttpClient parsed (so it reads exactly that),
    /// or <c>Transfer-Encoding: chunked</c> alone on an HTTP/1.1 response, or neither.
    /// </summary>
    public static bool HasValidFraming(HttpResponseMessage response)
    {
        var hasContentLength = response.Content.Headers.NonValidated.TryGetValues("Content-Length", out var contentLength);
        if (response.Headers.NonValidated.TryGetValues("Transfer-Encoding", out var codings))
        {
            return !hasContentLength && response.Version != HttpVersion.Version10 && codings.Count == 1
                && codings.ToString().AsSpan().Trim(" \t").Equals("chunked", StringComparison.OrdinalIgnoreCase);
        }

        return !hasContentLength || (contentLength.Count == 1 && response.Content.Headers.ContentLength is not null);
    }
}
