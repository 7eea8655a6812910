using System.Buffers;
using System.IO.Pipelines;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Downstream;

/// <summary>
/// <c>/echo</c>: answers 200 with the request body, streamed as it is read, and headers naming the
/// request's method, raw target and protocol. A request Content-Length is echoed; a body without one
/// is echoed chunked; a request that cannot have a body gets <c>Content-Length: 0</c>. With
/// <c>X-Echo-Head-First: 1</c> the response head leaves before any of the body is read: a full-duplex exchange, which
/// HTTP/2 allows (RFC 9113 §8.1: a response may begin while the request body is still being sent).
/// </summary>
internal static class EchoEndpoint
{
    public static Task HandleAsync(HttpContext context)
    {
        var request = context.Request;
        var response = context.Response;
        response.Headers["X-Echo-Method"] = request.Method;
        response.Headers["X-Echo-Target"] = context.Features.GetRequiredFeature<IHttpRequestFeature>().RawTarget;
        response.Headers["X-Echo-Protocol"] = request.Protocol;
        response.ContentLength = request.ContentLength ?? (CanHaveBody(context) ? null : 0);
        return request.Headers["X-Echo-Head-First"] == "1" ? HeadFirstAsync(context) : CopyAsync(request.BodyReader, response.BodyWriter);
    }

    private static async Task HeadFirstAsync(HttpContext context)
    {
        await context.Response.StartAsync();
        await context.Response.BodyWriter.FlushAsync();
        await CopyAsync(context.Request.BodyReader, context.Response.BodyWriter);
    }

    private static bool CanHaveBody(HttpContext context) =>
        context.Features.Get<IHttpRequestBodyDetectionFeature>()?.CanHaveBody ?? true;

    /// <summary>
    /// Copies each read into the response and flushes once per read, the last one included, so memory
    /// stays bounded by Kestrel's buffer limits. The last flush is not optional: once an HTTP/1.1
    /// Content-Length response has started, Kestrel does not count bytes committed through
    /// <c>GetSpan</c>/<c>Advance</c> as unflushed and skips its own end-of-response flush, leaving them
    /// in the pipe until the connection's next write or close.
    /// </summary>
    private static async Task CopyAsync(PipeReader reader, PipeWriter writer)
    {
        while (true)
        {
            var result = await reader.ReadAsync();
            var buffer = result.Buffer;
            foreach (var segment in buffer)
            {
                writer.Write(segment.Span);
            }

            reader.AdvanceTo(buffer.End);
            var flush = await writer.FlushAsync();
            if (result.IsCompleted || flush.IsCompleted || flush.IsCanceled)
            {
                return;
            }
        }
    }
}
