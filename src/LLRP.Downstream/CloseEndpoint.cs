using Microsoft.AspNetCore.Http;

namespace LLRP.Downstream;

/// <summary>
/// <c>/close?s=N</c>: answers 200 with N pattern bytes (default 10) and <c>Connection: close</c>, so
/// Kestrel closes the connection after the response. The body still has a Content-Length: Kestrel
/// cannot send an HTTP/1.1 close-delimited body (without a length it chunks).
/// </summary>
internal static class CloseEndpoint
{
    public static Task HandleAsync(HttpContext context)
    {
        var query = context.Request.QueryString.Value;
        if (!QueryParameters.TryGetInt64(query, "s", PatternEndpoint.DefaultSize, 0, long.MaxValue, out var size))
        {
            return InvalidQueryResponse.Write(context.Response, "s");
        }

        context.Response.Headers.Connection = "close";
        return PatternBodyWriter.WriteFixedAsync(context.Response, size);
    }
}
