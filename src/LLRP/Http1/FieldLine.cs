using System.Buffers;

namespace LLRP.Http1;

/// <summary>
/// One field line, <c>name: value CRLF</c>, from strings (an object model's fields) into a head being rendered; and
/// whole field lines handed to a sink one by one.
/// </summary>
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

    /// <summary>Gives <paramref name="sink"/> each of <paramref name="lines"/> (<c>Name: value\r\n</c>, each, as the session affinity's binding is kept), the value trimmed.</summary>
    public static void Split<TSink>(ReadOnlySpan<byte> lines, ref TSink sink)
        where TSink : IFieldSink, allows ref struct
    {
        while (lines.IndexOf("\r\n"u8) is var end and > 0)
        {
            var line = lines[..end];
            var colon = line.IndexOf((byte)':');
            if (colon > 0)
            {
                sink.Field(line[..colon], line[(colon + 1)..].Trim((byte)' '));
            }

            lines = lines[(end + 2)..];
        }
    }
}
