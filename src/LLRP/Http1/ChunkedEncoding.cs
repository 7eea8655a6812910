using System.Buffers;
using System.IO.Pipelines;

namespace LLRP.Http1;

/// <summary>
/// Writes the chunked transfer coding (RFC 9112 §7.1) in canonical form: no extensions, and a trailer section only of
/// the fields <see cref="TrailerFields"/> lets through.
/// </summary>
internal static class ChunkedEncoding
{
    public static void WriteChunk<TWriter>(ref BufferWriter<TWriter> writer, in ReadOnlySequence<byte> data)
        where TWriter : IBufferWriter<byte>
    {
        if (data.IsEmpty)
        {
            return;
        }

        writer.WriteHex(data.Length);
        writer.Write("\r\n"u8);
        writer.Write(data);
        writer.Write("\r\n"u8);
    }

    public static void WriteLastChunk<TWriter>(ref BufferWriter<TWriter> writer)
        where TWriter : IBufferWriter<byte>
        => writer.Write(LastChunk);

    /// <summary>Writes a piece of a body being relayed: one chunk when <paramref name="chunked"/>, else the bytes as they are.</summary>
    public static void WriteBodyPiece(PipeWriter output, in ReadOnlySequence<byte> data, bool chunked)
    {
        var writer = new BufferWriter<PipeWriterAdapter>(new PipeWriterAdapter(output), (int)Math.Min(data.Length + 24, 4096));
        if (chunked)
        {
            WriteChunk(ref writer, data);
        }
        else
        {
            writer.Write(data);
        }

        writer.Commit();
    }

    /// <summary>Ends a chunked body being relayed: the last chunk, no trailers.</summary>
    public static void WriteLastChunk(PipeWriter output) => output.Write(LastChunk);

    /// <summary>Ends a chunked body being relayed: the last chunk, then <paramref name="trailerLines"/> (field lines, each ending in CRLF) as its trailer section (RFC 9112 §7.1.2).</summary>
    public static void WriteLastChunk(PipeWriter output, ReadOnlySpan<byte> trailerLines)
    {
        output.Write("0\r\n"u8);
        output.Write(trailerLines);
        output.Write("\r\n"u8);
    }

    private static ReadOnlySpan<byte> LastChunk => "0\r\n\r\n"u8;
}
