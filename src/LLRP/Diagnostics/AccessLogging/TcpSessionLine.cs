using System.Buffers;
using System.Text.Json;

namespace LLRP.Diagnostics.AccessLogging;

/// <summary>
/// The access log line of one relayed TCP connection, in the log's format: <c>combined</c> keeps nginx's address and
/// time, then <c>"TCP"</c> and LLRP's fields
/// (<c>$remote_addr - - [$time_local] "TCP" route=… destination=… bytes_received=… bytes_sent=… session_time=… end=…</c>);
/// <c>json</c> has the same fields under nginx's <c>stream</c> variable names, with <c>"protocol":"TCP"</c>. A route that
/// accepts the PROXY protocol adds its header's ALPN and authority TLVs (<c>proxy_protocol_tlv_alpn=…
/// proxy_protocol_tlv_authority=…</c>, nginx's variable names; <c>-</c> or null without).
/// </summary>
internal static class TcpSessionLine
{
    public static void WriteCombined(IBufferWriter<byte> output, in TcpSessionRecord record)
    {
        CombinedLine.Escaped(output, record.Client, quoted: false);
        CombinedLine.Literal(output, " - - ["u8);
        CombinedLine.Literal(output, AccessLogClock.TimeLocal(record.Time));
        CombinedLine.Literal(output, "] \"TCP\" route="u8);
        CombinedLine.Name(output, record.Route);
        CombinedLine.Literal(output, " destination="u8);
        CombinedLine.Name(output, record.Destination);
        CombinedLine.Literal(output, " bytes_received="u8);
        CombinedLine.Number(output, record.BytesReceived);
        CombinedLine.Literal(output, " bytes_sent="u8);
        CombinedLine.Number(output, record.BytesSent);
        CombinedLine.Literal(output, " session_time="u8);
        CombinedLine.Seconds(output, record.SessionMs);
        CombinedLine.Literal(output, " end="u8);
        CombinedLine.Name(output, record.End);
        if (record.ProxyProtocol)
        {
            CombinedLine.ProxyHeaderFields(output, record.Alpn, record.Authority);
        }

        CombinedLine.Literal(output, "\n"u8);
    }

    /// <summary>Writes <paramref name="record"/> with <paramref name="json"/>, which was reset onto <paramref name="output"/>, then a line feed.</summary>
    public static void WriteJson(Utf8JsonWriter json, IBufferWriter<byte> output, in TcpSessionRecord record)
    {
        json.WriteStartObject();
        json.WriteString("remote_addr"u8, record.Client);
        json.WriteString("time"u8, record.Time);
        json.WriteString("protocol"u8, "TCP"u8);
        json.WriteString("route"u8, record.Route);
        NullableString(json, "destination"u8, record.Destination);

        json.WriteNumber("bytes_received"u8, record.BytesReceived);
        json.WriteNumber("bytes_sent"u8, record.BytesSent);
        json.WriteNumber("session_time"u8, record.SessionMs / 1000m);
        json.WriteString("end"u8, record.End);
        if (record.ProxyProtocol)
        {
            JsonLine.ProxyHeaderFields(json, record.Alpn, record.Authority);
        }

        json.WriteEndObject();
        json.Flush();
        output.Write("\n"u8);
    }

    private static void NullableString(Utf8JsonWriter json, ReadOnlySpan<byte> name, string? value)
    {
        if (value is null)
        {
            json.WriteNull(name);
        }
        else
        {
            json.WriteString(name, value);
        }
    }
}
