using LLRP.Upstream.HttpClient;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.LightContext;

/// <summary>
/// The copies between the light <see cref="HttpContext"/> and HttpClient's messages, shared by the modes built on the
/// context. Nothing is filtered here: the request already holds the fields to forward, and the response's fields are
/// filtered by raw mode's rules when its head is written.
/// </summary>
internal static class ContextMessages
{
    /// <summary>Method, URI (the destination and the raw target, byte for byte) and every field; framing is left to the content.</summary>
    public static void CopyRequest(HttpContext context, HttpRequestMessage message, TargetUriCache uris)
    {
        var request = context.Request;
        message.Method = HttpMethod.Parse(request.Method);
        message.RequestUri = uris.Get(context.Features.GetRequiredFeature<IHttpRequestFeature>().RawTarget);
        foreach (var (name, values) in request.Headers)
        {
            if (IsFraming(name))
            {
                continue;
            }

            foreach (var value in values)
            {
                if (value is not null && !message.Headers.TryAddWithoutValidation(name, value))
                {
                    (message.Content ??= new ByteArrayContent([])).Headers.TryAddWithoutValidation(name, value);
                }
            }
        }
    }

    /// <summary>Status, reason and every field of the response (and of its content) into <c>HttpContext.Response</c>.</summary>
    public static void CopyResponse(HttpResponseMessage source, HttpResponse response)
    {
        response.StatusCode = (int)source.StatusCode;
        response.HttpContext.Features.GetRequiredFeature<IHttpResponseFeature>().ReasonPhrase = source.ReasonPhrase;
        var headers = (FieldDictionary)response.Headers;
        foreach (var (name, values) in source.Headers.NonValidated)
        {
            foreach (var value in values)
            {
                headers.Append(name, value);
            }
        }

        foreach (var (name, values) in source.Content.Headers.NonValidated)
        {
            foreach (var value in values)
            {
                headers.Append(name, value);
            }
        }
    }

    /// <summary>Copies the trailers of <paramref name="source"/>, read to its end, into <paramref name="trailers"/>.</summary>
    public static void CopyTrailers(HttpResponseMessage source, IHeaderDictionary trailers)
    {
        foreach (var (name, values) in source.TrailingHeaders.NonValidated)
        {
            foreach (var value in values)
            {
                trailers.Append(name, value);
            }
        }
    }

    private static bool IsFraming(string name)
        => string.Equals(name, "Content-Length", StringComparison.OrdinalIgnoreCase)
            || string.Equals(name, "Transfer-Encoding", StringComparison.OrdinalIgnoreCase);
}
