using Microsoft.AspNetCore.Http;

namespace LLRP.Downstream;

/// <summary>
/// <c>/</c> and every unlisted path, compatible with aspnet/Benchmarks' Downstream:
/// <c>?s=N</c> answers 200 with an N-byte pattern body (default 10) and <c>?d=ms</c> waits first.
/// </summary>
internal static class PatternEndpoint
{
    public const long DefaultSize = 10;

    public static Task HandleAsync(HttpContext context)
    {
        var query = context.Request.QueryString.Value;
        if (!QueryParameters.TryGetInt64(query, "s", DefaultSize, 0, long.MaxValue, out var size))
        {
            return InvalidQueryResponse.Write(context.Response, "s");
        }

        if (!QueryParameters.TryGetInt64(query, "d", 0, 0, int.MaxValue, out var delay))
        {
            return InvalidQueryResponse.Write(context.Response, "d");
        }

        return delay == 0
            ? PatternBodyWriter.WriteFixedAsync(context.Response, size)
            : WriteDelayedAsync(context.Response, (int)delay, size);
    }

    private static async Task WriteDelayedAsync(HttpResponse response, int delay, long size)
    {
        await MinimumDelay.WaitAsync(TimeSpan.FromMilliseconds(delay));
        await PatternBodyWriter.WriteFixedAsync(response, size);
    }
}
