using LLRP.Http1;

namespace LLRP.Upstream.HttpClient;

/// <summary>The head of an <see cref="HttpResponseMessage"/> as LLRP's own response head, validated with raw mode's rules.</summary>
internal static class ResponseMessageHead
{
    /// <exception cref="HttpMessageException">The response is one raw mode would refuse (ambiguous framing, 101 unasked).</exception>
    public static ResponseHead Parse(HttpResponseMessage response, RenderedResponseHead rendered, int maxHeadSize)
    {
        rendered.Begin((int)response.StatusCode, response.ReasonPhrase, response.Version.Major == 1 && response.Version.Minor == 0);
        foreach (var (name, values) in response.Headers.NonValidated)
        {
            rendered.Add(name, values);
        }

        foreach (var (name, values) in response.Content.Headers.NonValidated)
        {
            rendered.Add(name, values);
        }

        return rendered.Parse(maxHeadSize);
    }
}
