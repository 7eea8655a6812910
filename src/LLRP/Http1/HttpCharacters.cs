namespace LLRP.Http1;

/// <summary>Byte classes of RFC 9110 §5.6.2 (tchar) and §5.5 (field-vchar, obs-text).</summary>
internal static class HttpCharacters
{
    private static ReadOnlySpan<byte> TokenTable =>
    [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        // SP ! " # $ % & ' ( ) * + , - . /
        0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1, 1, 0,
        // 0-9 : ; < = > ?
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,
        // @ A-O
        0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        // P-Z [ \ ] ^ _
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1,
        // ` a-o
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        // p-z { | } ~ DEL
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0,
    ];

    /// <summary>True for tchar (RFC 9110 §5.6.2).</summary>
    public static bool IsToken(byte value) => value < 128 && TokenTable[value] != 0;

    /// <summary>Index of the first byte that is not a tchar, or -1.</summary>
    public static int IndexOfNonToken(ReadOnlySpan<byte> value)
    {
        for (var i = 0; i < value.Length; i++)
        {
            if (!IsToken(value[i]))
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>True when every byte is field-vchar, obs-text, SP or HTAB (RFC 9110 §5.5): no CR, LF, NUL or other control.</summary>
    public static bool IsValidFieldValue(ReadOnlySpan<byte> value)
        => value.IndexOfAnyInRange((byte)0x00, (byte)0x08) < 0
            && value.IndexOfAnyInRange((byte)0x0A, (byte)0x1F) < 0
            && value.IndexOf((byte)0x7F) < 0;

    /// <summary>True when every byte is a visible ASCII character (request-target, RFC 9112 §3.2).</summary>
    public static bool IsValidTarget(ReadOnlySpan<byte> value)
        => value.IndexOfAnyExceptInRange((byte)0x21, (byte)0x7E) < 0;

    /// <summary>
    /// True for qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text (RFC 9110 §5.6.4); a quoted-pair may also
    /// escape '"' and '\'.
    /// </summary>
    public static bool IsQuotedText(byte value)
        => value is (byte)'\t' or (byte)' ' or 0x21 or (>= 0x23 and <= 0x5B) or (>= 0x5D and <= 0x7E) or >= 0x80;

    public static bool IsWhitespace(byte value) => value is (byte)' ' or (byte)'\t';

    /// <summary>Removes optional whitespace (OWS, RFC 9110 §5.6.3) at both ends.</summary>
    public static ReadOnlySpan<byte> TrimWhitespace(ReadOnlySpan<byte> value) => value.Trim(" \t"u8);
}
