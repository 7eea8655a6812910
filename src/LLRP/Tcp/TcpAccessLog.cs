using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;
using LLRP.Configuration;
using LLRP.Diagnostics.AccessLogging;

namespace LLRP.Tcp;

/// <summary>The access log of the TCP routes: one line per client connection, formatted on the thread that closes it (<see cref="TcpSessionLine"/>).</summary>
internal sealed class TcpAccessLog(AccessLogWriter writer, AccessLogFormat format)
{
    [ThreadStatic]
    private static ArrayBufferWriter<byte>? t_line;

    [ThreadStatic]
    private static Utf8JsonWriter? t_json;

    public void Write(in TcpSessionRecord record)
    {
        var line = t_line ??= new ArrayBufferWriter<byte>(256);
        line.ResetWrittenCount();
        if (format == AccessLogFormat.Json)
        {
            var json = t_json ??= new Utf8JsonWriter(line, new JsonWriterOptions { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping, SkipValidation = true });
            json.Reset(line);
            TcpSessionLine.WriteJson(json, line, record);
        }
        else
        {
            TcpSessionLine.WriteCombined(line, record);
        }

        writer.TryWrite(line.WrittenSpan);
    }

    /// <summary>The word of <paramref name="end"/> in the line's <c>end</c> field.</summary>
    public static string Word(TcpRelayEnd end) => end switch
    {
        TcpRelayEnd.Closed => "closed",
        TcpRelayEnd.ClientReset => "client_reset",
        TcpRelayEnd.UpstreamReset => "upstream_reset",
        TcpRelayEnd.IdleTimeout => "idle_timeout",
        TcpRelayEnd.Aborted => "aborted",
        TcpRelayEnd.RouteLimit => "route_limit",
        TcpRelayEnd.NoUpstream => "no_upstream",
    };
}
