using System.Buffers;
using System.Text;
using LLRP.Http1;

namespace LLRP.Upstream.HttpClient;

/// <summary>Writes header strings as Latin-1, the inverse of how HttpClient and <see cref="CachedString"/> decode them: one byte per char.</summary>
internal static class Latin1Writing
{
    private const int StackLimit = 256;

    public static void WriteLatin1<TWriter>(this ref BufferWriter<TWriter> writer, string value)
        where TWriter : IBufferWriter<byte>
    {
        if (value.Length <= StackLimit)
        {
            Span<byte> bytes = stackalloc byte[StackLimit];
            writer.Write(bytes[..Encoding.Latin1.GetBytes(value, bytes)]);
            return;
        }

        var rented = ArrayPool<byte>.Shared.Rent(value.Length);
        writer.Write(rented.AsSpan(0, Encoding.Latin1.GetBytes(value, rented)));
        ArrayPool<byte>.Shared.Return(rented);
    }
}
