using System.IO.Pipelines;
using Microsoft.AspNetCore.Http;

namespace LLRP.Downstream;

/// <summary>
/// <c>/chunked?s=N&amp;n=K</c>: answers 200 without a Content-Length (so HTTP/1.1 is chunked) with N
/// pattern bytes (default 10) in K flushed pieces (default 1). Sizes differ by at most one byte; K is
/// capped at N so no piece is empty, and a piece over one block goes out as one chunk per block.
/// </summary>
internal static class ChunkedEndpoint
{
    public static Task HandleAsync(HttpContext context)
    {
        var query = context.Request.QueryString.Value;
        if (!QueryParameters.TryGetInt64(query, "s", PatternEndpoint.DefaultSize, 0, long.MaxValue, out var size))
        {
            return InvalidQueryResponse.Write(context.Response, "s");
        }

        if (!QueryParameters.TryGetInt64(query, "n", 1, 1, long.MaxValue, out var pieces))
        {
            return InvalidQueryResponse.Write(context.Response, "n");
        }

        context.Response.ContentType = PatternBodyWriter.TextPlain;
        return WritePiecesAsync(context.Response.BodyWriter, size, Math.Min(pieces, size));
    }

    private static async Task WritePiecesAsync(PipeWriter writer, long size, long pieces)
    {
        var offset = 0L;
        for (var piece = 0L; piece < pieces; piece++)
        {
            var pieceSize = (size / pieces) + (piece < size % pieces ? 1 : 0);
            if (!await PatternBodyWriter.WriteFlushedAsync(writer, offset, pieceSize))
            {
                return;
            }

            offset += pieceSize;
        }
    }
}
