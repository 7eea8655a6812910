using System.Buffers;
using System.Text;
using LLRP.Diagnostics;

namespace LLRP.Http1;

/// <summary>
/// Parses a request head (RFC 9112 §2–§5). Pure: returns false when the head is incomplete (nothing is consumed),
/// throws <see cref="HttpMessageException"/> for a bad request.
/// </summary>
internal static class RequestHeadParser
{
    private const int MaxLeadingEmptyLines = 4;

    /// <param name="consumed">Bytes of input the head took, leading empty lines included.</param>
    public static bool TryParse(in ReadOnlySequence<byte> input, RequestHead head, in RequestLimits limits, out int consumed)
    {
        head.Reset();
        consumed = 0;
        var first = input.FirstSpan;
        var skipped = 0;
        if (first.Length > 0 && first[0] == (byte)'\r' && !TrySkipEmptyLines(input, out skipped))
        {
            return false;
        }

        bool complete;
        int headLength;
        if (first.Length >= skipped && (input.IsSingleSegment || first.Length - skipped >= limits.MaxHeadSize))
        {
            head.SetSource(input.First[skipped..]);
            complete = TryParse(first[skipped..], head, limits, out headLength);
        }
        else
        {
            complete = TryParseMultiSegment(input.Slice(skipped), head, limits, out headLength);
        }

        if (complete)
        {
            consumed = skipped + headLength;
        }

        return complete;
    }

    /// <summary>
    /// Skips the empty lines a client may send before a request line (RFC 9112 §2.2), at most
    /// <see cref="MaxLeadingEmptyLines"/>. Returns false when the input ends inside them.
    /// </summary>
    private static bool TrySkipEmptyLines(in ReadOnlySequence<byte> input, out int skipped)
    {
        var reader = new SequenceReader<byte>(input);
        skipped = 0;
        for (var line = 0; line < MaxLeadingEmptyLines && reader.IsNext((byte)'\r'); line++)
        {
            if (reader.Remaining < 2)
            {
                return false;
            }

            if (!reader.IsNext("\r\n"u8, advancePast: true))
            {
                break;
            }

            skipped += 2;
        }

        return true;
    }

    private static bool TryParseMultiSegment(in ReadOnlySequence<byte> input, RequestHead head, in RequestLimits limits, out int headLength)
    {
        var length = (int)Math.Min(input.Length, limits.MaxHeadSize);
        var span = head.Linearize(input, length);
        return TryParse(span, head, limits, out headLength);
    }

    private static bool TryParse(ReadOnlySpan<byte> span, RequestHead head, in RequestLimits limits, out int headLength)
    {
        headLength = 0;
        var window = span.Length > limits.MaxRequestLineSize ? span[..limits.MaxRequestLineSize] : span;
        var lineFeed = window.IndexOf((byte)'\n');
        if (lineFeed < 0)
        {
            if (window.Length == limits.MaxRequestLineSize)
            {
                RejectLongRequestLine(window);
            }

            return false;
        }

        if (lineFeed == 0 || span[lineFeed - 1] != (byte)'\r')
        {
            HttpMessageException.Throw(RejectionReason.BareLineFeed);
        }

        ParseRequestLine(span[..(lineFeed - 1)], head);
        if (!FieldSectionParser.TryParse(span, lineFeed + 1, limits.MaxHeadersTotalSize, limits.MaxHeaderCount, head, out headLength))
        {
            return false;
        }

        head.SetSource(head.Source[..headLength]);
        ApplyRequestSemantics(head);
        return true;
    }

    /// <summary>
    /// The request line does not fit the limit. When not even the method ends within it, the method is what is long:
    /// 501, as RFC 9112 §3 asks for a method longer than any implemented (or 400 if it is not a token); otherwise 414.
    /// </summary>
    private static void RejectLongRequestLine(ReadOnlySpan<byte> window)
    {
        if (window.IndexOf((byte)' ') >= 0)
        {
            HttpMessageException.Throw(RejectionReason.RequestLineTooLong);
        }

        HttpMessageException.Throw(HttpCharacters.IndexOfNonToken(window) >= 0 ? RejectionReason.InvalidMethod : RejectionReason.MethodTooLong);
    }

    /// <summary>request-line = method SP request-target SP HTTP-version (RFC 9112 §3).</summary>
    private static void ParseRequestLine(ReadOnlySpan<byte> line, RequestHead head)
    {
        var firstSpace = line.IndexOf((byte)' ');
        if (firstSpace <= 0)
        {
            HttpMessageException.Throw(RejectionReason.InvalidRequestLine);
        }

        var method = line[..firstSpace];
        if (HttpCharacters.IndexOfNonToken(method) >= 0)
        {
            HttpMessageException.Throw(RejectionReason.InvalidMethod);
        }

        var rest = line[(firstSpace + 1)..];
        var secondSpace = rest.IndexOf((byte)' ');
        if (secondSpace <= 0)
        {
            HttpMessageException.Throw(RejectionReason.InvalidRequestLine);
        }

        var target = rest[..secondSpace];
        if (!HttpCharacters.IsValidTarget(target))
        {
            HttpMessageException.Throw(RejectionReason.InvalidRequestTarget);
        }

        head.IsHttp10 = ParseVersion(rest[(secondSpace + 1)..]);
        head.MethodLength = method.Length;
        ClassifyMethod(method, head);
        ParseTarget(target, firstSpace + 1, head);
    }

    /// <summary>HTTP-version = "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3); returns true for HTTP/1.0.</summary>
    private static bool ParseVersion(ReadOnlySpan<byte> version)
    {
        if (version.Length != 8 || !version.StartsWith("HTTP/"u8) || version[6] != (byte)'.'
            || !char.IsAsciiDigit((char)version[5]) || !char.IsAsciiDigit((char)version[7]))
        {
            HttpMessageException.Throw(RejectionReason.InvalidVersion);
        }

        if (version[5] != (byte)'1')
        {
            HttpMessageException.Throw(RejectionReason.UnsupportedVersion);
        }

        return version[7] == (byte)'0';
    }

    private static void ClassifyMethod(ReadOnlySpan<byte> method, RequestHead head)
    {
        if (method.SequenceEqual("CONNECT"u8))
        {
            HttpMessageException.Throw(RejectionReason.UnsupportedMethod);
        }

        head.IsHeadMethod = method.SequenceEqual("HEAD"u8);
        head.IsIdempotent = head.IsHeadMethod || method.SequenceEqual("GET"u8) || method.SequenceEqual("PUT"u8)
            || method.SequenceEqual("DELETE"u8) || method.SequenceEqual("OPTIONS"u8) || method.SequenceEqual("TRACE"u8);
    }

    /// <summary>origin-form, absolute-form (http/https) or asterisk-form for OPTIONS (RFC 9112 §3.2).</summary>
    private static void ParseTarget(ReadOnlySpan<byte> target, int targetStart, RequestHead head)
    {
        if (target[0] == (byte)'/')
        {
            head.PathStart = targetStart;
            head.PathLength = target.Length;
            return;
        }

        if (target.Length == 1 && target[0] == (byte)'*' && head.Method.SequenceEqual("OPTIONS"u8))
        {
            head.PathStart = targetStart;
            head.PathLength = 1;
            return;
        }

        var schemeLength = StartsWithIgnoreCase(target, "http://"u8) ? 7 : StartsWithIgnoreCase(target, "https://"u8) ? 8 : 0;
        if (schemeLength == 0)
        {
            HttpMessageException.Throw(RejectionReason.InvalidRequestTarget);
        }

        var afterScheme = target[schemeLength..];
        var authorityLength = afterScheme.IndexOfAny((byte)'/', (byte)'?');
        if (authorityLength < 0)
        {
            authorityLength = afterScheme.Length;
        }

        if (authorityLength == 0 || afterScheme[..authorityLength].IndexOfAny((byte)'@', (byte)'#') >= 0)
        {
            HttpMessageException.Throw(RejectionReason.InvalidRequestTarget);
        }

        head.HasAbsoluteTarget = true;
        head.TargetAuthorityStart = targetStart + schemeLength;
        head.TargetAuthorityLength = authorityLength;
        head.PathStart = targetStart + schemeLength + authorityLength;
        head.PathLength = afterScheme.Length - authorityLength;
    }

    private static bool StartsWithIgnoreCase(ReadOnlySpan<byte> value, ReadOnlySpan<byte> prefix)
        => value.Length >= prefix.Length && Ascii.EqualsIgnoreCase(value[..prefix.Length], prefix);

    private static void ApplyRequestSemantics(RequestHead head)
    {
        FieldSemantics.Apply(head);
        var source = head.Source.Span;
        var fields = head.Fields;
        for (var i = 0; i < fields.Length; i++)
        {
            switch (fields[i].Kind)
            {
                case FieldKind.Host:
                    if (head.HostFieldIndex >= 0)
                    {
                        HttpMessageException.Throw(RejectionReason.DuplicateHost);
                    }

                    head.HostFieldIndex = i;
                    break;
                case FieldKind.TE:
                    head.AcceptsTrailers |= ListsToken(fields[i].Value(source), "trailers"u8);
                    break;
                case FieldKind.Expect:
                    head.ExpectsContinue |= Ascii.EqualsIgnoreCase(fields[i].Value(source), "100-continue"u8);
                    break;
            }
        }

        if (head.HostFieldIndex < 0 && !head.IsHttp10)
        {
            HttpMessageException.Throw(RejectionReason.MissingHost);
        }

        if ((head.HostFieldIndex >= 0 && !HostSyntax.IsValid(fields[head.HostFieldIndex].Value(source)))
            || (head.HasAbsoluteTarget && !HostSyntax.IsValid(head.ClientAuthority)))
        {
            HttpMessageException.Throw(RejectionReason.InvalidHost);
        }
    }

    private static bool ListsToken(ReadOnlySpan<byte> list, ReadOnlySpan<byte> token)
    {
        foreach (var range in list.Split((byte)','))
        {
            var element = list[range];
            var parameters = element.IndexOf((byte)';');
            if (Ascii.EqualsIgnoreCase(HttpCharacters.TrimWhitespace(parameters < 0 ? element : element[..parameters]), token))
            {
                return true;
            }
        }

        return false;
    }
}
