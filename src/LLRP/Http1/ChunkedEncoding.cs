using System.Buffers;

namespace LLRP.Http1;

/// <summary>Writes the chunked transfer coding (RFC 9112 §7.1) in canonical form: no extensions, no trailers.</summary>
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
        => writer.Write("0\r\n\r\n"u8);
}
