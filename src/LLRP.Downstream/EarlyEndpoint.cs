using Microsoft.AspNetCore.Http;

namespace LLRP.Downstream;

/// <summary>
/// <c>/early?s=N</c>: answers 200 with N pattern bytes (default 10) and completes the response without
/// reading the request body; Kestrel then drains or drops the unread body on its own.
/// </summary>
internal static class EarlyEndpoint
{
    public static async Task HandleAsync(HttpContext context)
    {
        var query = context.Request.QueryString.Value;
        if (!QueryParameters.TryGetInt64(query, "s", PatternEndpoint.DefaultSize, 0, long.MaxValue, out var size))
        {
            await InvalidQueryResponse.Write(context.Response, "s");
            return;
        }

        await PatternBodyWriter.WriteFixedAsync(context.Response, size);
        await context.Response.CompleteAsync();
    }
}
