using Microsoft.AspNetCore.Http;

namespace LLRP.Downstream;

/// <summary>
/// <c>/status?code=NNN&amp;s=N</c>: answers with status <c>code</c> (200–599, default 200). Codes that
/// cannot carry a body (204, 205, 304) get none; any other gets N pattern bytes (default 0) with a
/// Content-Length.
/// </summary>
internal static class StatusEndpoint
{
    public static Task HandleAsync(HttpContext context)
    {
        var query = context.Request.QueryString.Value;
        if (!QueryParameters.TryGetInt64(query, "code", StatusCodes.Status200OK, 200, 599, out var code))
        {
            return InvalidQueryResponse.Write(context.Response, "code");
        }

        if (!QueryParameters.TryGetInt64(query, "s", 0, 0, long.MaxValue, out var size))
        {
            return InvalidQueryResponse.Write(context.Response, "s");
        }

        context.Response.StatusCode = (int)code;
        return code is StatusCodes.Status204NoContent or StatusCodes.Status205ResetContent or StatusCodes.Status304NotModified
            ? Task.CompletedTask
            : PatternBodyWriter.WriteFixedAsync(context.Response, size);
    }
}
