using System.Buffers.Binary;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace LLRP.ProxyProtocol;

/// <summary>
/// Parses the PROXY protocol header a listener accepts (HAProxy's proxy-protocol.txt), v1 or v2 by its first bytes, from
/// the start of a connection's bytes; a pure function: <see cref="ProxyHeaderStatus.NeedMore"/> while the bytes are a
/// valid beginning, bounded by <see cref="MaxLength"/>.
/// </summary>
internal static class ProxyHeaderParser
{
    /// <summary>The longest v1 line, CRLF included (section 2.1).</summary>
    public const int MaxV1Length = 107;

    /// <summary>
    /// The longest header taken: 536 bytes, the smallest TCP segment every host must accept, which section 2.2 asks a
    /// receiver to be ready for; a longer v2 header (its length field allows 65,551 bytes) is refused.
    /// </summary>
    public const int MaxLength = 536;

    private const int V2FixedLength = 16;

    private static ReadOnlySpan<byte> V1Prefix => "PROXY "u8;

    public static ProxyHeaderStatus TryParse(ReadOnlySpan<byte> input, out ProxyHeader header, out ProxyHeaderError error)
    {
        header = default;
        error = ProxyHeaderError.None;
        if (input.IsEmpty)
        {
            return ProxyHeaderStatus.NeedMore;
        }

        if (input[0] == V1Prefix[0])
        {
            return ParseV1(input, out header, out error);
        }

        var signature = ProxyHeaderWriter.Signature;
        var compared = Math.Min(input.Length, signature.Length);
        if (!input[..compared].SequenceEqual(signature[..compared]))
        {
            return Invalid(ProxyHeaderError.BadSignature, out error);
        }

        return input.Length < V2FixedLength ? ProxyHeaderStatus.NeedMore : ParseV2(input, out header, out error);
    }

    private static ProxyHeaderStatus ParseV1(ReadOnlySpan<byte> input, out ProxyHeader header, out ProxyHeaderError error)
    {
        header = default;
        error = ProxyHeaderError.None;
        var compared = Math.Min(input.Length, V1Prefix.Length);
        if (!input[..compared].SequenceEqual(V1Prefix[..compared]))
        {
            return Invalid(ProxyHeaderError.BadSignature, out error);
        }

        var window = input[..Math.Min(input.Length, MaxV1Length)];
        var end = window.IndexOf("\r\n"u8);
        if (end < 0)
        {
            return input.Length >= MaxV1Length ? Invalid(ProxyHeaderError.LineTooLong, out error) : ProxyHeaderStatus.NeedMore;
        }

        var fields = window[V1Prefix.Length..end];
        var length = end + 2;
        if (fields.StartsWith("UNKNOWN"u8) && (fields.Length == 7 || fields[7] == (byte)' '))
        {
            // Section 2.1: the rest of an UNKNOWN line is ignored; the connection's own addresses stand.
            header = new ProxyHeader(length, null, null, null, null);
            return ProxyHeaderStatus.Parsed;
        }

        Span<Range> parts = stackalloc Range[5];
        if (!SplitFields(fields, parts))
        {
            return Invalid(ProxyHeaderError.BadToken, out error);
        }

        var family = fields[parts[0]];
        var v4 = family.SequenceEqual("TCP4"u8);
        if (!v4 && !family.SequenceEqual("TCP6"u8))
        {
            return Invalid(ProxyHeaderError.BadToken, out error);
        }

        var expected = v4 ? AddressFamily.InterNetwork : AddressFamily.InterNetworkV6;
        if (Address(fields[parts[1]], expected) is not { } source || Address(fields[parts[2]], expected) is not { } destination)
        {
            return Invalid(ProxyHeaderError.BadAddress, out error);
        }

        if (Port(fields[parts[3]]) is not { } sourcePort || Port(fields[parts[4]]) is not { } destinationPort)
        {
            return Invalid(ProxyHeaderError.BadPort, out error);
        }

        header = new ProxyHeader(length, new IPEndPoint(source, sourcePort), new IPEndPoint(destination, destinationPort), null, null);
        return ProxyHeaderStatus.Parsed;
    }

    private static ProxyHeaderStatus ParseV2(ReadOnlySpan<byte> input, out ProxyHeader header, out ProxyHeaderError error)
    {
        header = default;
        error = ProxyHeaderError.None;
        var versionCommand = input[12];
        if (versionCommand >> 4 != 2)
        {
            return Invalid(ProxyHeaderError.BadVersion, out error);
        }

        var command = versionCommand & 0x0F;
        if (command > 1)
        {
            return Invalid(ProxyHeaderError.BadCommand, out error);
        }

        var length = V2FixedLength + BinaryPrimitives.ReadUInt16BigEndian(input[14..]);
        if (length > MaxLength)
        {
            return Invalid(ProxyHeaderError.TooLong, out error);
        }

        if (input.Length < length)
        {
            return ProxyHeaderStatus.NeedMore;
        }

        var block = input[V2FixedLength..length];
        var addressLength = input[13] switch
        {
            0x11 => 4,
            0x21 => 16,
            0x00 => 0,
            _ => -1,
        };
        if (command == 0)
        {
            // LOCAL (a health check of the sender's own): the addresses, if any, are ignored.
            header = new ProxyHeader(length, null, null, null, null);
            return ProxyHeaderStatus.Parsed;
        }

        if (addressLength < 0)
        {
            return Invalid(ProxyHeaderError.BadFamily, out error);
        }

        if (block.Length < (2 * addressLength) + (addressLength == 0 ? 0 : 4))
        {
            return Invalid(ProxyHeaderError.AddressesTruncated, out error);
        }

        IPEndPoint? source = null, destination = null;
        var at = 0;
        if (addressLength > 0)
        {
            source = new IPEndPoint(new IPAddress(block[..addressLength]), BinaryPrimitives.ReadUInt16BigEndian(block[(2 * addressLength)..]));
            destination = new IPEndPoint(new IPAddress(block[addressLength..(2 * addressLength)]), BinaryPrimitives.ReadUInt16BigEndian(block[((2 * addressLength) + 2)..]));
            at = (2 * addressLength) + 4;
        }

        string? alpn = null, authority = null;
        var tlvs = addressLength == 0 ? ReadOnlySpan<byte>.Empty : block[at..];
        while (!tlvs.IsEmpty)
        {
            // Section 2.2: each TLV is a type, a 2-byte length and that many bytes, all within the header's length.
            if (tlvs.Length < 3 || tlvs.Length < 3 + BinaryPrimitives.ReadUInt16BigEndian(tlvs[1..]))
            {
                return Invalid(ProxyHeaderError.BadTlv, out error);
            }

            var value = tlvs.Slice(3, BinaryPrimitives.ReadUInt16BigEndian(tlvs[1..]));
            switch (tlvs[0])
            {
                case ProxyHeaderWriter.AlpnType:
                    if (alpn is not null || !IsTlvText(value))
                    {
                        return Invalid(ProxyHeaderError.BadTlvValue, out error);
                    }

                    alpn = Encoding.ASCII.GetString(value);
                    break;
                case ProxyHeaderWriter.AuthorityType:
                    if (authority is not null || !IsTlvText(value))
                    {
                        return Invalid(ProxyHeaderError.BadTlvValue, out error);
                    }

                    authority = Encoding.ASCII.GetString(value);
                    break;
            }

            tlvs = tlvs[(3 + value.Length)..];
        }

        header = new ProxyHeader(length, source, destination, alpn, authority);
        return ProxyHeaderStatus.Parsed;
    }

    /// <summary>
    /// An ALPN or authority value that can be logged and sent on as it is: 1 to <see cref="ProxyHeaderWriter.MaxTlvText"/>
    /// bytes of visible ASCII (a protocol id of RFC 7301 §3.1 is 1 to 255 bytes; a host name, RFC 6066 §3's SNI, at most
    /// 255 by RFC 1035 §2.3.4), so no space, control byte or line break reaches a log line or a header sent on.
    /// </summary>
    private static bool IsTlvText(ReadOnlySpan<byte> value)
        => value.Length is > 0 and <= ProxyHeaderWriter.MaxTlvText && !value.ContainsAnyExceptInRange((byte)0x21, (byte)0x7E);

    /// <summary>Exactly <c>parts.Length</c> non-empty fields separated by single spaces.</summary>
    private static bool SplitFields(ReadOnlySpan<byte> fields, Span<Range> parts)
    {
        var start = 0;
        for (var i = 0; i < parts.Length; i++)
        {
            var space = fields[start..].IndexOf((byte)' ');
            var end = space < 0 ? fields.Length : start + space;
            if (end == start || (space < 0) != (i == parts.Length - 1))
            {
                return false;
            }

            parts[i] = start..end;
            start = end + 1;
        }

        return true;
    }

    private static IPAddress? Address(ReadOnlySpan<byte> text, AddressFamily family)
    {
        Span<char> chars = stackalloc char[text.Length];
        for (var i = 0; i < text.Length; i++)
        {
            chars[i] = (char)text[i];
        }

        return text.Length is > 0 and <= 45 && text.IndexOf((byte)'%') < 0 && IPAddress.TryParse(chars, out var address) && address.AddressFamily == family
               && (family == AddressFamily.InterNetworkV6 || text.Count((byte)'.') == 3)
            ? address
            : null;
    }

    private static int? Port(ReadOnlySpan<byte> text)
        => text.Length is > 0 and <= 5 && (text.Length == 1 || text[0] != (byte)'0') && !text.ContainsAnyExceptInRange((byte)'0', (byte)'9')
           && int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var port) && port <= IPEndPoint.MaxPort
            ? port
            : null;

    private static ProxyHeaderStatus Invalid(ProxyHeaderError reason, out ProxyHeaderError error)
    {
        error = reason;
        return ProxyHeaderStatus.Invalid;
    }
}
