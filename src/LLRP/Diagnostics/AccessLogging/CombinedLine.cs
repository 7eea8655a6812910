using System.Buffers;
using System.Buffers.Text;
using System.Text;

namespace LLRP.Diagnostics.AccessLogging;

/// <summary>
/// nginx's <c>combined</c> format, then LLRP's fields:
/// <c>$remote_addr - - [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" route=… destination=… upstream_status=… request_time=… upstream_time=…</c>.
/// As nginx does, a <c>"</c>, a <c>\</c>, a control byte or a byte past ASCII is written <c>\xHH</c>; in the unquoted
/// route and destination, a space too. Times are seconds with millisecond resolution. A listener that accepts the PROXY
/// protocol adds its header's ALPN and authority TLVs (<c>proxy_protocol_tlv_alpn=… proxy_protocol_tlv_authority=…</c>,
/// nginx's variable names; <c>-</c> without).
/// </summary>
internal static class CombinedLine
{
    private static ReadOnlySpan<byte> Hex => "0123456789ABCDEF"u8;

    public static void Write(IBufferWriter<byte> output, in AccessLogRecord record)
    {
        Escaped(output, record.Client, quoted: false);
        Literal(output, " - - ["u8);
        Literal(output, AccessLogClock.TimeLocal(record.Time));
        Literal(output, "] \""u8);
        Field(output, record.Request);
        Literal(output, "\" "u8);
        Number(output, record.Status);
        Literal(output, " "u8);
        Number(output, record.BodyBytes);
        Literal(output, " \""u8);
        Field(output, record.Referer);
        Literal(output, "\" \""u8);
        Field(output, record.UserAgent);
        Literal(output, "\" route="u8);
        Name(output, record.Route);
        Literal(output, " destination="u8);
        Name(output, record.Destination);
        Literal(output, " upstream_status="u8);
        if (record.UpstreamStatus == 0)
        {
            Literal(output, "-"u8);
        }
        else
        {
            Number(output, record.UpstreamStatus);
        }

        Literal(output, " request_time="u8);
        Seconds(output, record.RequestMs);
        Literal(output, " upstream_time="u8);
        Seconds(output, record.UpstreamMs);
        if (record.ProxyProtocol)
        {
            ProxyHeaderFields(output, record.ProxyAlpn, record.ProxyAuthority);
        }

        Literal(output, "\n"u8);
    }

    private static void Field(IBufferWriter<byte> output, ReadOnlySpan<byte> value)
    {
        if (value.IsEmpty)
        {
            Literal(output, "-"u8);
        }
        else
        {
            Escaped(output, value, quoted: true);
        }
    }

    /// <summary>The ALPN and authority TLVs of a connection's PROXY protocol header, under nginx's variable names (<c>-</c> without).</summary>
    internal static void ProxyHeaderFields(IBufferWriter<byte> output, string? alpn, string? authority)
    {
        Literal(output, " proxy_protocol_tlv_alpn="u8);
        Name(output, alpn);
        Literal(output, " proxy_protocol_tlv_authority="u8);
        Name(output, authority);
    }

    internal static void Name(IBufferWriter<byte> output, string? name)
    {
        if (string.IsNullOrEmpty(name))
        {
            Literal(output, "-"u8);
            return;
        }

        var bytes = name.Length <= 128 ? stackalloc byte[Encoding.UTF8.GetMaxByteCount(name.Length)] : Encoding.UTF8.GetBytes(name);
        Escaped(output, bytes[..Encoding.UTF8.GetBytes(name, bytes)], quoted: false);
    }

    internal static void Escaped(IBufferWriter<byte> output, ReadOnlySpan<byte> value, bool quoted)
    {
        var span = output.GetSpan(value.Length * 4);
        var written = 0;
        foreach (var b in value)
        {
            if (b is < 0x20 or >= 0x7F or (byte)'"' or (byte)'\\' || (b == ' ' && !quoted))
            {
                span[written] = (byte)'\\';
                span[written + 1] = (byte)'x';
                span[written + 2] = Hex[b >> 4];
                span[written + 3] = Hex[b & 0xF];
                written += 4;
            }
            else
            {
                span[written++] = b;
            }
        }

        output.Advance(written);
    }

    internal static void Seconds(IBufferWriter<byte> output, long milliseconds)
    {
        if (milliseconds < 0)
        {
            Literal(output, "-"u8);
            return;
        }

        Number(output, milliseconds / 1000);
        var span = output.GetSpan(4);
        span[0] = (byte)'.';
        Utf8Formatter.TryFormat(milliseconds % 1000, span[1..], out _, new StandardFormat('D', 3));
        output.Advance(4);
    }

    internal static void Number(IBufferWriter<byte> output, long value)
    {
        var span = output.GetSpan(20);
        Utf8Formatter.TryFormat(value, span, out var written);
        output.Advance(written);
    }

    internal static void Literal(IBufferWriter<byte> output, ReadOnlySpan<byte> value) => output.Write(value);
}
