using System.Buffers;
using LLRP.Diagnostics;

namespace LLRP.Http1;

/// <summary>
/// Parses an upstream response head (RFC 9112 §4–§6). Pure: returns false when incomplete, throws
/// <see cref="HttpMessageException"/> for an invalid or ambiguous response.
/// </summary>
internal static class ResponseHeadParser
{
    private const int MaxFieldCount = 1000;

    public static bool TryParse(in ReadOnlySequence<byte> input, ResponseHead head, int maxHeadSize, out int consumed)
    {
        head.Reset();
        ReadOnlySpan<byte> span;
        if (input.IsSingleSegment || input.FirstSpan.Length >= maxHeadSize)
        {
            span = input.FirstSpan;
            head.SetSource(input.First);
        }
        else
        {
            span = head.Linearize(input, (int)Math.Min(input.Length, maxHeadSize));
        }

        consumed = 0;
        var window = span.Length > maxHeadSize ? span[..maxHeadSize] : span;
        var lineFeed = window.IndexOf((byte)'\n');
        if (lineFeed < 0)
        {
            if (window.Length == maxHeadSize)
            {
                HttpMessageException.Throw(RejectionReason.HeadersTooLarge);
            }

            return false;
        }

        if (lineFeed == 0 || span[lineFeed - 1] != (byte)'\r')
        {
            HttpMessageException.Throw(RejectionReason.BareLineFeed);
        }

        ParseStatusLine(span[..(lineFeed - 1)], head);
        if (!FieldSectionParser.TryParse(span, lineFeed + 1, maxHeadSize - lineFeed - 1, MaxFieldCount, head, out consumed))
        {
            return false;
        }

        head.SetSource(head.Source[..consumed]);
        FieldSemantics.Apply(head);
        if (head.Framing == BodyFraming.None && !head.IsInterim)
        {
            head.Framing = BodyFraming.CloseDelimited;
        }

        return true;
    }

    /// <summary>status-line = HTTP-version SP status-code SP [ reason-phrase ] (RFC 9112 §4).</summary>
    private static void ParseStatusLine(ReadOnlySpan<byte> line, ResponseHead head)
    {
        if (line.Length < 12 || !line.StartsWith("HTTP/1."u8) || !char.IsAsciiDigit((char)line[7]) || line[8] != (byte)' '
            || !char.IsAsciiDigit((char)line[9]) || !char.IsAsciiDigit((char)line[10]) || !char.IsAsciiDigit((char)line[11])
            || line[9] == (byte)'0')
        {
            HttpMessageException.Throw(RejectionReason.InvalidStatusLine);
        }

        head.IsHttp10 = line[7] == (byte)'0';
        head.StatusCode = ((line[9] - '0') * 100) + ((line[10] - '0') * 10) + (line[11] - '0');
        if (head.StatusCode > 599)
        {
            HttpMessageException.Throw(RejectionReason.InvalidStatusLine);
        }

        if (line.Length == 12)
        {
            return;
        }

        if (line[12] != (byte)' ' || !HttpCharacters.IsValidFieldValue(line[13..]))
        {
            HttpMessageException.Throw(RejectionReason.InvalidStatusLine);
        }

        head.ReasonStart = 13;
        head.ReasonLength = line.Length - 13;
    }
}
