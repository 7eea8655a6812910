using System.Buffers;
using System.Security.Cryptography;
using System.Text;
using Microsoft.AspNetCore.Http;

namespace LLRP.Downstream;

/// <summary>
/// <c>/sink</c>: reads and discards the request body, hashing it as it goes, then answers 200 with
/// <c>&lt;byteCount&gt; &lt;sha256 lowercase hex&gt;</c>.
/// </summary>
internal static class SinkEndpoint
{
    public static async Task HandleAsync(HttpContext context)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        var reader = context.Request.BodyReader;
        var length = 0L;
        while (true)
        {
            var result = await reader.ReadAsync();
            foreach (var segment in result.Buffer)
            {
                hash.AppendData(segment.Span);
            }

            length += result.Buffer.Length;
            reader.AdvanceTo(result.Buffer.End);
            if (result.IsCompleted)
            {
                break;
            }
        }

        var body = Encoding.ASCII.GetBytes($"{length} {Convert.ToHexStringLower(hash.GetHashAndReset())}");
        var response = context.Response;
        response.ContentType = PatternBodyWriter.TextPlain;
        response.ContentLength = body.Length;
        response.BodyWriter.Write(body);
    }
}
