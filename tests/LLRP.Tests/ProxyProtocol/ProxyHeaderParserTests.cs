using System.Net;
using System.Text;
using LLRP.ProxyProtocol;

namespace LLRP.Tests.ProxyProtocol;

/// <summary>
/// The PROXY protocol header an accepting TCP route reads (HAProxy's proxy-protocol.txt): valid v1 lines and v2 headers,
/// every prefix of one needing more, and each malformed case refused with its reason.
/// </summary>
public sealed class ProxyHeaderParserTests
{
    private static readonly byte[] Signature = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A];

    private static ProxyHeaderStatus Parse(byte[] input, out ProxyHeader header, out ProxyHeaderError error)
        => ProxyHeaderParser.TryParse(input, out header, out error);

    private static ProxyHeaderError Refused(byte[] input)
    {
        Assert.Equal(ProxyHeaderStatus.Invalid, Parse(input, out _, out var error));
        return error;
    }

    private static ProxyHeaderError Refused(string input) => Refused(Encoding.ASCII.GetBytes(input));

    /// <summary>Every prefix of a whole header needs more; the whole one parses to its length, leaving what follows.</summary>
    private static ProxyHeader ParsedWithEveryPrefixNeedingMore(byte[] header)
    {
        for (var length = 0; length < header.Length; length++)
        {
            Assert.Equal(ProxyHeaderStatus.NeedMore, Parse(header[..length], out _, out _));
        }

        Assert.Equal(ProxyHeaderStatus.Parsed, Parse([.. header, .. "GET /"u8], out var parsed, out var error));
        Assert.Equal(ProxyHeaderError.None, error);
        Assert.Equal(header.Length, parsed.Length);
        return parsed;
    }

    private static byte[] V2(byte versionCommand, byte family, byte[] block)
        => [.. Signature, versionCommand, family, (byte)(block.Length >> 8), (byte)block.Length, .. block];

    private static readonly byte[] IPv4Block = [192, 168, 0, 1, 192, 168, 0, 11, 0xDC, 0x04, 0x01, 0xBB];

    [Fact]
    public void V1_TCP4()
    {
        var header = ParsedWithEveryPrefixNeedingMore("PROXY TCP4 192.168.0.1 192.168.0.11 56324 443\r\n"u8.ToArray());
        Assert.Equal(IPEndPoint.Parse("192.168.0.1:56324"), header.Source);
        Assert.Equal(IPEndPoint.Parse("192.168.0.11:443"), header.Destination);
    }

    [Fact]
    public void V1_TCP6()
    {
        var header = ParsedWithEveryPrefixNeedingMore("PROXY TCP6 2001:db8::1 ::1 65535 0\r\n"u8.ToArray());
        Assert.Equal(IPEndPoint.Parse("[2001:db8::1]:65535"), header.Source);
        Assert.Equal(IPEndPoint.Parse("[::1]:0"), header.Destination);
    }

    /// <summary>Section 2.1: with UNKNOWN the rest of the line is ignored, and the connection's own addresses stand.</summary>
    [Theory]
    [InlineData("PROXY UNKNOWN\r\n")]
    [InlineData("PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n")]
    public void V1_Unknown_NoAddress(string line)
    {
        var header = ParsedWithEveryPrefixNeedingMore(Encoding.ASCII.GetBytes(line));
        Assert.Null(header.Source);
    }

    [Fact]
    public void V1_LongestLine_Parsed()
    {
        var line = Encoding.ASCII.GetBytes("PROXY TCP6 ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff 65535 65535\r\n");
        Assert.Equal(104, ParsedWithEveryPrefixNeedingMore(line).Length);
    }

    /// <summary>Section 2.1: a line is at most 107 bytes; a receiver that has read 107 without a CRLF closes.</summary>
    [Fact]
    public void V1_NoCrlfWithin107Bytes_LineTooLong()
    {
        var line = "PROXY UNKNOWN " + new string('x', 93);
        Assert.Equal(107, line.Length);
        Assert.Equal(ProxyHeaderError.LineTooLong, Refused(line));
        Assert.Equal(ProxyHeaderStatus.NeedMore, Parse(Encoding.ASCII.GetBytes(line[..106]), out _, out _));
    }

    [Theory]
    [InlineData("GET / HTTP/1.1\r\n")]
    [InlineData("proxy TCP4 1.2.3.4 5.6.7.8 1 2\r\n")]
    [InlineData("PROXYTCP4")]
    [InlineData("\u0016\u0003\u0001")]
    public void BadSignature(string input) => Assert.Equal(ProxyHeaderError.BadSignature, Refused(input));

    [Theory]
    [InlineData("PROXY TCP5 1.2.3.4 5.6.7.8 1 2\r\n")]
    [InlineData("PROXY tcp4 1.2.3.4 5.6.7.8 1 2\r\n")]
    [InlineData("PROXY TCP4  1.2.3.4 5.6.7.8 1 2\r\n")]
    [InlineData("PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n")]
    [InlineData("PROXY TCP4 1.2.3.4 5.6.7.8 1 2 3\r\n")]
    [InlineData("PROXY TCP4 1.2.3.4 5.6.7.8 1 2 \r\n")]
    [InlineData("PROXY UNKNOWNX\r\n")]
    [InlineData("PROXY \r\n")]
    public void V1_BadToken(string line) => Assert.Equal(ProxyHeaderError.BadToken, Refused(line));

    [Theory]
    [InlineData("PROXY TCP4 ::1 5.6.7.8 1 2\r\n")]
    [InlineData("PROXY TCP6 1.2.3.4 ::1 1 2\r\n")]
    [InlineData("PROXY TCP4 1.2.3 5.6.7.8 1 2\r\n")]
    [InlineData("PROXY TCP4 256.2.3.4 5.6.7.8 1 2\r\n")]
    [InlineData("PROXY TCP6 fe80::1%eth0 ::1 1 2\r\n")]
    [InlineData("PROXY TCP4 host 5.6.7.8 1 2\r\n")]
    public void V1_BadAddress(string line) => Assert.Equal(ProxyHeaderError.BadAddress, Refused(line));

    [Theory]
    [InlineData("PROXY TCP4 1.2.3.4 5.6.7.8 65536 2\r\n")]
    [InlineData("PROXY TCP4 1.2.3.4 5.6.7.8 01 2\r\n")]
    [InlineData("PROXY TCP4 1.2.3.4 5.6.7.8 -1 2\r\n")]
    [InlineData("PROXY TCP4 1.2.3.4 5.6.7.8 1 +2\r\n")]
    [InlineData("PROXY TCP4 1.2.3.4 5.6.7.8 1 x\r\n")]
    public void V1_BadPort(string line) => Assert.Equal(ProxyHeaderError.BadPort, Refused(line));

    [Fact]
    public void V2_IPv4()
    {
        var header = ParsedWithEveryPrefixNeedingMore(V2(0x21, 0x11, IPv4Block));
        Assert.Equal(IPEndPoint.Parse("192.168.0.1:56324"), header.Source);
        Assert.Equal(IPEndPoint.Parse("192.168.0.11:443"), header.Destination);
    }

    [Fact]
    public void V2_IPv6()
    {
        byte[] block = [.. IPAddress.Parse("2001:db8::1").GetAddressBytes(), .. IPAddress.IPv6Loopback.GetAddressBytes(), 0xFF, 0xFF, 0x00, 0x01];
        var header = ParsedWithEveryPrefixNeedingMore(V2(0x21, 0x21, block));
        Assert.Equal(IPEndPoint.Parse("[2001:db8::1]:65535"), header.Source);
        Assert.Equal(IPEndPoint.Parse("[::1]:1"), header.Destination);
    }

    /// <summary>Section 2.2.1: TLVs after the addresses; ALPN (0x01) and AUTHORITY (0x02) kept, others (here NOOP, 0x04) skipped.</summary>
    [Fact]
    public void V2_Tlvs_AlpnAndAuthority()
    {
        byte[] block = [.. IPv4Block, 0x01, 0x00, 0x02, (byte)'h', (byte)'2', 0x04, 0x00, 0x01, 0x00, 0x02, 0x00, 0x0B, .. "example.com"u8];
        var header = ParsedWithEveryPrefixNeedingMore(V2(0x21, 0x11, block));
        Assert.Equal("h2", header.Alpn);
        Assert.Equal("example.com", header.Authority);
        Assert.Equal(IPEndPoint.Parse("192.168.0.1:56324"), header.Source);
    }

    /// <summary>Section 2.2: LOCAL (the sender's own health check) carries no client: the connection's address stands.</summary>
    [Fact]
    public void V2_Local_NoAddress()
    {
        var header = ParsedWithEveryPrefixNeedingMore(V2(0x20, 0x11, IPv4Block));
        Assert.Null(header.Source);
        Assert.Null(ParsedWithEveryPrefixNeedingMore(V2(0x20, 0x00, [])).Source);
    }

    [Fact]
    public void V2_UnspecifiedFamily_NoAddress() => Assert.Null(ParsedWithEveryPrefixNeedingMore(V2(0x21, 0x00, [])).Source);

    [Fact]
    public void V2_BadSignatureByte() => Assert.Equal(ProxyHeaderError.BadSignature, Refused([.. Signature[..11], 0x0B, 0x21, 0x11, 0, 12, .. IPv4Block]));

    [Theory]
    [InlineData(0x11)]
    [InlineData(0x31)]
    public void V2_BadVersion(byte versionCommand) => Assert.Equal(ProxyHeaderError.BadVersion, Refused(V2(versionCommand, 0x11, IPv4Block)));

    [Fact]
    public void V2_BadCommand() => Assert.Equal(ProxyHeaderError.BadCommand, Refused(V2(0x22, 0x11, IPv4Block)));

    /// <summary>UDP (0x12, 0x22), UNIX (0x31, 0x32) and undefined families are not a TCP client's.</summary>
    [Theory]
    [InlineData(0x12)]
    [InlineData(0x22)]
    [InlineData(0x31)]
    [InlineData(0x32)]
    [InlineData(0x41)]
    public void V2_BadFamily(byte family) => Assert.Equal(ProxyHeaderError.BadFamily, Refused(V2(0x21, family, new byte[216])));

    /// <summary>A length past the bound is refused from the fixed part alone, before waiting for its bytes.</summary>
    [Fact]
    public void V2_Oversize_RefusedFromTheFixedPart()
    {
        byte[] fixedPart = [.. Signature, 0x21, 0x11, 0x02, 0x09];
        Assert.Equal(16 + 521, ProxyHeaderParser.MaxLength + 1);
        Assert.Equal(ProxyHeaderError.TooLong, Refused(fixedPart));
        Assert.Equal(ProxyHeaderError.TooLong, Refused([.. Signature, 0x21, 0x11, 0xFF, 0xFF]));
    }

    [Fact]
    public void V2_LongestAllowed_Parsed()
    {
        byte[] block = [.. IPv4Block, 0x04, 0x01, 0xF9, .. new byte[505]];
        Assert.Equal(ProxyHeaderParser.MaxLength, ParsedWithEveryPrefixNeedingMore(V2(0x21, 0x11, block)).Length);
    }

    [Theory]
    [InlineData(0x11, 11)]
    [InlineData(0x21, 12)]
    [InlineData(0x21, 35)]
    public void V2_AddressesTruncated(byte family, int blockLength) => Assert.Equal(ProxyHeaderError.AddressesTruncated, Refused(V2(0x21, family, new byte[blockLength])));

    [Theory]
    [InlineData(new byte[] { 0x01 })]
    [InlineData(new byte[] { 0x01, 0x00 })]
    [InlineData(new byte[] { 0x01, 0x00, 0x03, (byte)'h', (byte)'2' })]
    public void V2_TlvPastTheEnd(byte[] tlv) => Assert.Equal(ProxyHeaderError.BadTlv, Refused(V2(0x21, 0x11, [.. IPv4Block, .. tlv])));

    /// <summary>Section 2.2: the TLVs fill the header's length exactly; one byte of a TLV past it waits for nothing and is refused.</summary>
    [Fact]
    public void V2_TlvEndsExactlyAtTheHeadersEnd_Parsed()
    {
        byte[] block = [.. IPv4Block, 0x02, 0x00, 0x01, (byte)'a'];
        Assert.Equal("a", ParsedWithEveryPrefixNeedingMore(V2(0x21, 0x11, block)).Authority);
    }

    /// <summary>
    /// ALPN and authority values are logged and sent on, so each is 1 to 255 bytes of visible ASCII (RFC 7301 §3.1: a
    /// protocol id is 1 to 255 bytes; RFC 1035 §2.3.4: a name at most 255), and given once.
    /// </summary>
    [Theory]
    [InlineData(0x01, "")]
    [InlineData(0x02, "")]
    [InlineData(0x01, "h 2")]
    [InlineData(0x02, "example.com\r\nx")]
    [InlineData(0x02, "caf\u00e9.example")]
    [InlineData(0x02, "a\u007f")]
    public void V2_BadAlpnOrAuthorityValue_Refused(byte type, string escaped)
    {
        var value = Encoding.Latin1.GetBytes(System.Text.RegularExpressions.Regex.Unescape(escaped));
        byte[] tlv = [type, (byte)(value.Length >> 8), (byte)value.Length, .. value];
        Assert.Equal(ProxyHeaderError.BadTlvValue, Refused(V2(0x21, 0x11, [.. IPv4Block, .. tlv])));
    }

    [Fact]
    public void V2_AuthorityOf256Bytes_Refused()
    {
        byte[] tlv = [0x02, 0x01, 0x00, .. Enumerable.Repeat((byte)'a', 256)];
        Assert.Equal(ProxyHeaderError.BadTlvValue, Refused(V2(0x21, 0x11, [.. IPv4Block, .. tlv])));
    }

    [Fact]
    public void V2_AuthorityOf255Bytes_Parsed()
    {
        byte[] tlv = [0x02, 0x00, 0xFF, .. Enumerable.Repeat((byte)'a', 255)];
        Assert.Equal(new string('a', 255), ParsedWithEveryPrefixNeedingMore(V2(0x21, 0x11, [.. IPv4Block, .. tlv])).Authority);
    }

    [Theory]
    [InlineData(0x01)]
    [InlineData(0x02)]
    public void V2_AlpnOrAuthorityTwice_Refused(byte type)
        => Assert.Equal(ProxyHeaderError.BadTlvValue, Refused(V2(0x21, 0x11, [.. IPv4Block, type, 0x00, 0x01, (byte)'a', type, 0x00, 0x01, (byte)'b'])));
}
