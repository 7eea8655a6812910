using System.Buffers;

namespace LLRP.Http1;

/// <summary>One field line, <c>name: value CRLF</c>, from strings (an object model's fields) into a head being rendered.</summary>
internal static class FieldLine
{
    /// <param name="value">Written as Latin-1; null writes an empty value.</param>
    public static void Append(ArrayBufferWriter<byte> bytes, string name, string? value)
    {
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(bytes, name.Length + (value?.Length ?? 0) + 4);
        writer.WriteLatin1(name);
        writer.Write(": "u8);
        writer.WriteLatin1(value ?? string.Empty);
        writer.Write("\r\n"u8);
        writer.Commit();
    }
}
