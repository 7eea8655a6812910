using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace LLRP.Diagnostics.AccessLogging;

/// <summary>
/// Formats access log records as lines, <see cref="CombinedLine"/> or <see cref="JsonLine"/>, into a buffer it reuses, and
/// hands each to the <see cref="AccessLogWriter"/>. Not thread-safe: one per client connection, or per HTTP/2 stream.
/// </summary>
internal sealed class AccessLogLine(AccessLogWriter writer, bool json)
{
    private readonly ArrayBufferWriter<byte> _line = new(512);
    private Utf8JsonWriter? _json;

    public void Write(in AccessLogRecord record)
    {
        _line.ResetWrittenCount();
        if (json)
        {
            var jsonWriter = _json ??= new Utf8JsonWriter(_line, new JsonWriterOptions { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping, SkipValidation = true });
            jsonWriter.Reset(_line);
            JsonLine.Write(jsonWriter, _line, record);
        }
        else
        {
            CombinedLine.Write(_line, record);
        }

        writer.TryWrite(_line.WrittenSpan);
    }
}
