using System.Buffers;
using System.Text;
using System.Text.Json;
using System.Text.Unicode;

namespace LLRP.Diagnostics.AccessLogging;

/// <summary>
/// One JSON object a line, with the fields of <see cref="CombinedLine"/> under nginx's variable names; unknown fields
/// are <c>null</c>, times are seconds. Bytes that are not UTF-8 become U+FFFD.
/// </summary>
internal static class JsonLine
{
    /// <summary>Writes <paramref name="record"/> with <paramref name="json"/>, which was reset onto <paramref name="output"/>, then a line feed.</summary>
    public static void Write(Utf8JsonWriter json, IBufferWriter<byte> output, in AccessLogRecord record)
    {
        json.WriteStartObject();
        Text(json, "remote_addr"u8, record.Client);
        json.WriteString("time"u8, record.Time);
        Text(json, "request"u8, record.Request);
        json.WriteNumber("status"u8, record.Status);
        json.WriteNumber("body_bytes_sent"u8, record.BodyBytes);
        Text(json, "http_referer"u8, record.Referer);
        Text(json, "http_user_agent"u8, record.UserAgent);
        Name(json, "route"u8, record.Route);
        Name(json, "destination"u8, record.Destination);
        if (record.UpstreamStatus == 0)
        {
            json.WriteNull("upstream_status"u8);
        }
        else
        {
            json.WriteNumber("upstream_status"u8, record.UpstreamStatus);
        }

        Seconds(json, "request_time"u8, record.RequestMs);
        Seconds(json, "upstream_time"u8, record.UpstreamMs);
        if (record.ProxyProtocol)
        {
            ProxyHeaderFields(json, record.ProxyAlpn, record.ProxyAuthority);
        }

        json.WriteEndObject();
        json.Flush();
        output.Write("\n"u8);
    }

    private static void Text(Utf8JsonWriter json, ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        if (value.IsEmpty)
        {
            json.WriteNull(name);
        }
        else if (Utf8.IsValid(value))
        {
            json.WriteString(name, value);
        }
        else
        {
            json.WriteString(name, Encoding.UTF8.GetString(value));
        }
    }

    /// <summary>The ALPN and authority TLVs of a connection's PROXY protocol header, under nginx's variable names (null without).</summary>
    internal static void ProxyHeaderFields(Utf8JsonWriter json, string? alpn, string? authority)
    {
        Name(json, "proxy_protocol_tlv_alpn"u8, alpn);
        Name(json, "proxy_protocol_tlv_authority"u8, authority);
    }

    private static void Name(Utf8JsonWriter json, ReadOnlySpan<byte> name, string? value)
    {
        if (string.IsNullOrEmpty(value))
        {
            json.WriteNull(name);
        }
        else
        {
            json.WriteString(name, value);
        }
    }

    private static void Seconds(Utf8JsonWriter json, ReadOnlySpan<byte> name, long milliseconds)
    {
        if (milliseconds < 0)
        {
            json.WriteNull(name);
        }
        else
        {
            json.WriteNumber(name, milliseconds / 1000m);
        }
    }
}
