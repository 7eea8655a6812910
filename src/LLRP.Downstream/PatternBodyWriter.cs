using System.Buffers;
using System.IO.Pipelines;
using Microsoft.AspNetCore.Http;

namespace LLRP.Downstream;

/// <summary>
/// Writes <see cref="BodyPattern"/> bytes to a response. Bodies up to one block are copied into the
/// response pipe without a flush (Kestrel sends them with the head); larger ones are written one
/// block per flush, so back-pressure bounds memory whatever the size.
/// </summary>
internal static class PatternBodyWriter
{
    public const string TextPlain = "text/plain";

    /// <summary>Sets <c>Content-Type</c> and <c>Content-Length</c>, then writes <paramref name="size"/> bytes.</summary>
    public static Task WriteFixedAsync(HttpResponse response, long size)
    {
        response.ContentType = TextPlain;
        response.ContentLength = size;
        if (size <= BodyPattern.BlockSize)
        {
            response.BodyWriter.Write(BodyPattern.Slice(0, (int)size).Span);
            return Task.CompletedTask;
        }

        return WriteFlushedAsync(response.BodyWriter, 0, size).AsTask();
    }

    /// <summary>
    /// Writes body positions <c>[offset, offset + size)</c>, flushing after each block. Returns false
    /// as soon as the response pipe reports the client is gone.
    /// </summary>
    public static async ValueTask<bool> WriteFlushedAsync(PipeWriter writer, long offset, long size)
    {
        var end = offset + size;
        while (offset < end)
        {
            var count = (int)Math.Min(end - offset, BodyPattern.BlockSize);
            var result = await writer.WriteAsync(BodyPattern.Slice(offset, count));
            if (result.IsCompleted || result.IsCanceled)
            {
                return false;
            }

            offset += count;
        }

        return true;
    }
}
