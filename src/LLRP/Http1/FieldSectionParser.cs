using LLRP.Diagnostics;

namespace LLRP.Http1;

/// <summary>Parses the field lines of a message head (RFC 9112 §5) into a <see cref="MessageHead"/>.</summary>
internal static class FieldSectionParser
{
    /// <summary>
    /// Parses field lines from <paramref name="offset"/> up to and including the empty line.
    /// Returns false when the empty line has not arrived yet; throws on a malformed line or a limit.
    /// </summary>
    /// <param name="sectionLimit">Most bytes the field section may take, the empty line included.</param>
    public static bool TryParse(ReadOnlySpan<byte> span, int offset, int sectionLimit, int maxCount, MessageHead head, out int headLength)
    {
        var sectionStart = offset;
        while (true)
        {
            var lineFeed = span[offset..].IndexOf((byte)'\n');
            if (lineFeed < 0)
            {
                if (span.Length - sectionStart >= sectionLimit)
                {
                    HttpMessageException.Throw(RejectionReason.HeadersTooLarge);
                }

                headLength = 0;
                return false;
            }

            var lineEnd = offset + lineFeed;
            if (lineEnd + 1 - sectionStart > sectionLimit)
            {
                HttpMessageException.Throw(RejectionReason.HeadersTooLarge);
            }

            if (lineFeed == 0 || span[lineEnd - 1] != (byte)'\r')
            {
                HttpMessageException.Throw(RejectionReason.BareLineFeed);
            }

            var line = span[offset..(lineEnd - 1)];
            if (line.IsEmpty)
            {
                headLength = lineEnd + 1;
                return true;
            }

            if (head.FieldCount == maxCount)
            {
                HttpMessageException.Throw(RejectionReason.TooManyHeaders);
            }

            head.AddField(ParseLine(line, offset));
            offset = lineEnd + 1;
        }
    }

    private static HeaderField ParseLine(ReadOnlySpan<byte> line, int lineStart)
    {
        if (HttpCharacters.IsWhitespace(line[0]))
        {
            HttpMessageException.Throw(RejectionReason.ObsoleteLineFolding);
        }

        var colon = line.IndexOf((byte)':');
        if (colon <= 0)
        {
            HttpMessageException.Throw(RejectionReason.InvalidFieldName);
        }

        var name = line[..colon];
        if (HttpCharacters.IsWhitespace(name[^1]))
        {
            HttpMessageException.Throw(RejectionReason.WhitespaceBeforeColon);
        }

        if (HttpCharacters.IndexOfNonToken(name) >= 0)
        {
            HttpMessageException.Throw(RejectionReason.InvalidFieldName);
        }

        var rawValue = line[(colon + 1)..];
        if (!HttpCharacters.IsValidFieldValue(rawValue))
        {
            HttpMessageException.Throw(RejectionReason.InvalidFieldValue);
        }

        var leading = rawValue.Length - rawValue.TrimStart(" \t"u8).Length;
        var value = HttpCharacters.TrimWhitespace(rawValue);
        return new HeaderField
        {
            NameStart = lineStart,
            NameLength = colon,
            ValueStart = lineStart + colon + 1 + leading,
            ValueLength = value.Length,
            Kind = KnownFields.Classify(name),
        };
    }
}
