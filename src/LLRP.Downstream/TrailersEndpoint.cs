using System.Text;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Net.Http.Headers;

namespace LLRP.Downstream;

/// <summary>
/// <c>/trailers</c>: reads the request body to its end, answers 200 with a body listing the request's trailers
/// (<c>name: value</c> lines, RFC 9110 §6.5), and, where the protocol carries response trailers (HTTP/2), sends
/// <c>x-checksum: 42</c> and <c>content-type: text/trailer</c> (a field RFC 9110 §6.5.1 does not allow in a trailer
/// section, for a proxy to drop) as trailers. No Content-Length, so an HTTP/1.1 response is chunked.
/// </summary>
internal static class TrailersEndpoint
{
    public static async Task HandleAsync(HttpContext context)
    {
        await context.Request.Body.CopyToAsync(Stream.Null, context.RequestAborted);
        var listed = new StringBuilder();
        if (context.Request.SupportsTrailers() && context.Request.CheckTrailersAvailable())
        {
            foreach (var (name, values) in context.Features.GetRequiredFeature<IHttpRequestTrailersFeature>().Trailers)
            {
                foreach (var value in values)
                {
                    listed.Append(name).Append(": ").Append(value).Append('\n');
                }
            }
        }

        if (context.Response.SupportsTrailers())
        {
            context.Response.DeclareTrailer("x-checksum");
        }

        await context.Response.WriteAsync(listed.ToString(), context.RequestAborted);
        if (context.Response.SupportsTrailers())
        {
            context.Response.AppendTrailer("x-checksum", "42");
            context.Response.AppendTrailer(HeaderNames.ContentType, "text/trailer");
        }
    }
}
