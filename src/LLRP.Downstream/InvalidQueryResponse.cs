using System.Buffers;
using System.Text;
using Microsoft.AspNetCore.Http;

namespace LLRP.Downstream;

/// <summary>The 400 answer to a query parameter that is not a number in its allowed range.</summary>
internal static class InvalidQueryResponse
{
    public static Task Write(HttpResponse response, string parameter)
    {
        var body = Encoding.ASCII.GetBytes($"invalid query parameter '{parameter}'\n");
        response.StatusCode = StatusCodes.Status400BadRequest;
        response.ContentType = PatternBodyWriter.TextPlain;
        response.ContentLength = body.Length;
        response.BodyWriter.Write(body);
        return Task.CompletedTask;
    }
}
