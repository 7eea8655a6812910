using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Downstream;

/// <summary>
/// <c>/headers</c>: discards the request body, then answers 200 with <c>target: &lt;raw target&gt;</c>,
/// <c>method: &lt;method&gt;</c> and one <c>name: value</c> line per request header, in Kestrel's order,
/// names lowercased and repeated values joined with <c>", "</c>; lines end with <c>\n</c>.
/// </summary>
internal static class HeadersEndpoint
{
    public static async Task HandleAsync(HttpContext context)
    {
        await DrainAsync(context.Request.BodyReader);
        var body = Encoding.UTF8.GetBytes(Describe(context));
        var response = context.Response;
        response.ContentType = PatternBodyWriter.TextPlain;
        response.ContentLength = body.Length;
        response.BodyWriter.Write(body);
    }

    private static string Describe(HttpContext context)
    {
        var text = new StringBuilder();
        var target = context.Features.GetRequiredFeature<IHttpRequestFeature>().RawTarget;
        text.Append("target: ").Append(target).Append('\n');
        text.Append("method: ").Append(context.Request.Method).Append('\n');
        foreach (var (name, values) in context.Request.Headers)
        {
            text.Append(name.ToLowerInvariant()).Append(": ").AppendJoin<string?>(", ", values).Append('\n');
        }

        return text.ToString();
    }

    private static async Task DrainAsync(PipeReader reader)
    {
        while (true)
        {
            var result = await reader.ReadAsync();
            reader.AdvanceTo(result.Buffer.End);
            if (result.IsCompleted)
            {
                return;
            }
        }
    }
}
