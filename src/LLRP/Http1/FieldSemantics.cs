using System.Text;
using LLRP.Diagnostics;

namespace LLRP.Http1;

/// <summary>
/// Reads the fields that decide framing and persistence (RFC 9112 §6.1–§6.3, §9.3) and marks the fields a
/// <c>Connection</c> option names. Strict: anything ambiguous is rejected.
/// </summary>
internal static class FieldSemantics
{
    public static void Apply(MessageHead head)
    {
        var source = head.Source.Span;
        var fields = head.Fields;
        var hasContentLength = false;
        var hasTransferEncoding = false;
        var chunkedCount = 0;
        var lastCodingIsChunked = false;
        var unsupportedCoding = false;
        long contentLength = -1;

        for (var i = 0; i < fields.Length; i++)
        {
            var value = fields[i].Value(source);
            switch (fields[i].Kind)
            {
                case FieldKind.ContentLength:
                    hasContentLength = true;
                    contentLength = ParseContentLength(value, contentLength);
                    break;
                case FieldKind.TransferEncoding:
                    hasTransferEncoding = true;
                    ReadCodings(value, ref chunkedCount, ref lastCodingIsChunked, ref unsupportedCoding);
                    break;
                case FieldKind.Connection:
                    ReadConnectionOptions(head, value);
                    break;
            }
        }

        if (hasTransferEncoding)
        {
            if (head.IsHttp10)
            {
                HttpMessageException.Throw(RejectionReason.TransferEncodingOnHttp10);
            }

            if (hasContentLength)
            {
                HttpMessageException.Throw(RejectionReason.ContentLengthWithTransferEncoding);
            }

            if (!lastCodingIsChunked || chunkedCount != 1)
            {
                HttpMessageException.Throw(RejectionReason.InvalidTransferEncoding);
            }

            if (unsupportedCoding)
            {
                HttpMessageException.Throw(RejectionReason.UnsupportedTransferCoding);
            }

            head.Framing = BodyFraming.Chunked;
        }
        else if (hasContentLength)
        {
            head.Framing = BodyFraming.ContentLength;
            head.ContentLength = contentLength;
        }
    }

    /// <summary>
    /// Content-Length = 1*DIGIT (RFC 9110 §8.6). A list of identical values (from repeated fields or commas) is
    /// accepted as one value; differing values, signs, spaces inside, hex and overflow are rejected.
    /// </summary>
    public static long ParseContentLength(ReadOnlySpan<byte> value, long previous)
    {
        while (true)
        {
            var comma = value.IndexOf((byte)',');
            var element = HttpCharacters.TrimWhitespace(comma < 0 ? value : value[..comma]);
            var parsed = ParseDigits(element);
            if (previous >= 0 && parsed != previous)
            {
                HttpMessageException.Throw(RejectionReason.InvalidContentLength);
            }

            previous = parsed;
            if (comma < 0)
            {
                return parsed;
            }

            value = value[(comma + 1)..];
        }
    }

    private static long ParseDigits(ReadOnlySpan<byte> digits)
    {
        if (digits.IsEmpty || digits.Length > 18)
        {
            HttpMessageException.Throw(RejectionReason.InvalidContentLength);
        }

        long result = 0;
        foreach (var digit in digits)
        {
            var d = (uint)(digit - '0');
            if (d > 9)
            {
                HttpMessageException.Throw(RejectionReason.InvalidContentLength);
            }

            result = (result * 10) + d;
        }

        return result;
    }

    /// <summary>Transfer-Encoding = #transfer-coding (RFC 9112 §6.1); only <c>chunked</c> is understood.</summary>
    private static void ReadCodings(ReadOnlySpan<byte> value, ref int chunkedCount, ref bool lastIsChunked, ref bool unsupported)
    {
        while (true)
        {
            var comma = value.IndexOf((byte)',');
            var element = HttpCharacters.TrimWhitespace(comma < 0 ? value : value[..comma]);
            var name = element;
            var parameters = element.IndexOf((byte)';');
            if (parameters >= 0)
            {
                name = HttpCharacters.TrimWhitespace(element[..parameters]);
            }

            // Empty list elements are ignored (RFC 9110 §5.6.1.2).
            if (!element.IsEmpty)
            {
                if (name.IsEmpty || HttpCharacters.IndexOfNonToken(name) >= 0)
                {
                    HttpMessageException.Throw(RejectionReason.InvalidTransferEncoding);
                }

                CountCoding(name, parameters >= 0, ref chunkedCount, ref lastIsChunked, ref unsupported);
            }

            if (comma < 0)
            {
                return;
            }

            value = value[(comma + 1)..];
        }
    }

    private static void CountCoding(ReadOnlySpan<byte> name, bool hasParameters, ref int chunkedCount, ref bool lastIsChunked, ref bool unsupported)
    {
        lastIsChunked = !hasParameters && Ascii.EqualsIgnoreCase(name, "chunked"u8);
        if (lastIsChunked)
        {
            chunkedCount++;
        }
        else
        {
            unsupported = true;
        }
    }

    /// <summary>Connection = #connection-option (RFC 9110 §7.6.1).</summary>
    private static void ReadConnectionOptions(MessageHead head, ReadOnlySpan<byte> value)
    {
        foreach (var range in value.Split((byte)','))
        {
            var option = HttpCharacters.TrimWhitespace(value[range]);
            if (option.IsEmpty)
            {
                continue;
            }

            if (HttpCharacters.IndexOfNonToken(option) >= 0)
            {
                HttpMessageException.Throw(RejectionReason.InvalidFieldValue);
            }

            if (Ascii.EqualsIgnoreCase(option, "close"u8))
            {
                head.ConnectionClose = true;
            }
            else if (Ascii.EqualsIgnoreCase(option, "keep-alive"u8))
            {
                head.ConnectionKeepAlive = true;
            }
            else if (Ascii.EqualsIgnoreCase(option, "upgrade"u8))
            {
                head.ConnectionUpgrade = true;
            }
            else
            {
                MarkNamedFields(head, option);
            }
        }
    }

    /// <summary>Fields named by a Connection option are hop-by-hop. Framing and Host are re-computed by the proxy anyway, so they keep their kind.</summary>
    private static void MarkNamedFields(MessageHead head, ReadOnlySpan<byte> option)
    {
        var source = head.Source.Span;
        var fields = head.Fields;
        for (var i = 0; i < fields.Length; i++)
        {
            if (fields[i].Kind is FieldKind.Other or FieldKind.Via or FieldKind.Expect or FieldKind.Trailer
                    or FieldKind.XForwardedFor or FieldKind.XForwardedHost or FieldKind.XForwardedProto
                && Ascii.EqualsIgnoreCase(fields[i].Name(source), option))
            {
                head.MarkField(i, FieldKind.NamedByConnection);
            }
        }
    }
}
