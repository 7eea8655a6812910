using LLRP.Http1;

namespace LLRP.Http2.Codec;

/// <summary>The rules of RFC 9113 §8.2 on one field, over its bytes: a request's at the server end, a response's at the client end.</summary>
internal static class FieldRules
{
    /// <summary>§8.2.1: a field name is lowercase, with no character outside a token (RFC 9110 §5.1) and no whitespace.</summary>
    public static bool IsValidName(ReadOnlySpan<byte> name)
        => !name.IsEmpty && HttpCharacters.IndexOfNonToken(name) < 0 && name.IndexOfAnyInRange((byte)'A', (byte)'Z') < 0;

    /// <summary>§8.2.1: a field value has no NUL, CR or LF, and no leading or trailing space or tab.</summary>
    public static bool IsValidValue(ReadOnlySpan<byte> value)
    {
        if (value.IndexOfAny((byte)0, (byte)'\r', (byte)'\n') >= 0)
        {
            return false;
        }

        return value.IsEmpty || (value[0] is not ((byte)' ' or (byte)'\t') && value[^1] is not ((byte)' ' or (byte)'\t'));
    }

    /// <summary>§8.2.2: fields that are connection-specific make a request malformed (<c>te</c> is checked on its value).</summary>
    public static bool IsConnectionSpecific(ReadOnlySpan<byte> name)
        => name.SequenceEqual("connection"u8) || name.SequenceEqual("keep-alive"u8) || name.SequenceEqual("proxy-connection"u8)
           || name.SequenceEqual("transfer-encoding"u8) || name.SequenceEqual("upgrade"u8);
}
