using System.Net;
using LLRP.Configuration.Routes;
using LLRP.ProxyProtocol;

namespace LLRP.Tests.ProxyProtocol;

/// <summary>The PROXY protocol header a cluster sends first, byte for byte (HAProxy's proxy-protocol.txt, sections 2.1 and 2.2).</summary>
public sealed class ProxyHeaderWriterTests
{
    private static byte[] Write(ProxyProtocolVersion version, string source, string destination)
    {
        var output = new byte[ProxyHeaderWriter.MaxLength];
        return output[..ProxyHeaderWriter.Write(output, version, IPEndPoint.Parse(source), IPEndPoint.Parse(destination))];
    }

    /// <summary>Section 2.1's example line.</summary>
    [Fact]
    public void V1_IPv4() => Assert.Equal("PROXY TCP4 192.168.0.1 192.168.0.11 56324 443\r\n"u8.ToArray(), Write(ProxyProtocolVersion.V1, "192.168.0.1:56324", "192.168.0.11:443"));

    [Fact]
    public void V1_IPv6() => Assert.Equal("PROXY TCP6 2001:db8::1 ::1 65535 1\r\n"u8.ToArray(), Write(ProxyProtocolVersion.V1, "[2001:db8::1]:65535", "[::1]:1"));

    /// <summary>A client of a dual-stack listener arrives IPv4-mapped: the header carries it as IPv4.</summary>
    [Fact]
    public void V1_MappedAddresses_AsIPv4() => Assert.Equal("PROXY TCP4 10.0.0.7 10.0.0.1 40000 9900\r\n"u8.ToArray(), Write(ProxyProtocolVersion.V1, "[::ffff:10.0.0.7]:40000", "[::ffff:10.0.0.1]:9900"));

    /// <summary>Both addresses of one family (section 2.1): an IPv4 one beside an IPv6 one is mapped to IPv6.</summary>
    [Fact]
    public void V1_MixedFamilies_BothIPv6() => Assert.Equal("PROXY TCP6 ::ffff:10.0.0.7 ::1 40000 9900\r\n"u8.ToArray(), Write(ProxyProtocolVersion.V1, "10.0.0.7:40000", "[::1]:9900"));

    [Fact]
    public void V1_LongestLine_FitsTheMaximum()
    {
        var line = Write(ProxyProtocolVersion.V1, "[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]:65535", "[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]:65535");
        Assert.Equal(104, line.Length);
        Assert.True(line.Length <= ProxyHeaderWriter.MaxLength);
    }

    [Fact]
    public void V2_IPv4()
    {
        byte[] expected =
        [
            0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A,
            0x21, 0x11, 0x00, 0x0C,
            192, 168, 0, 1,
            192, 168, 0, 11,
            0xDC, 0x04,
            0x01, 0xBB,
        ];
        Assert.Equal(expected, Write(ProxyProtocolVersion.V2, "192.168.0.1:56324", "192.168.0.11:443"));
    }

    [Fact]
    public void V2_IPv6()
    {
        byte[] expected =
        [
            0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A,
            0x21, 0x21, 0x00, 0x24,
            0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
            0xFF, 0xFF,
            0x00, 0x01,
        ];
        Assert.Equal(expected, Write(ProxyProtocolVersion.V2, "[2001:db8::1]:65535", "[::1]:1"));
    }

    /// <summary>proxy-protocol.txt §2.1: a health check's v1 line is <c>PROXY UNKNOWN</c>; the parser keeps the connection's own addresses.</summary>
    [Fact]
    public void Local_V1_ProxyUnknown()
    {
        var header = ProxyHeaderWriter.LocalHeaderOf(ProxyProtocolVersion.V1);

        Assert.Equal("PROXY UNKNOWN\r\n"u8.ToArray(), header);
        Assert.Equal(ProxyHeaderStatus.Parsed, ProxyHeaderParser.TryParse(header, out var parsed, out _));
        Assert.Equal(new ProxyHeader(header.Length, null, null, null, null), parsed);
    }

    /// <summary>proxy-protocol.txt §2.2: a health check's v2 header is the LOCAL command (0x20), family UNSPEC, no address block.</summary>
    [Fact]
    public void Local_V2_LocalCommandUnspecNoAddresses()
    {
        var header = ProxyHeaderWriter.LocalHeaderOf(ProxyProtocolVersion.V2);

        Assert.Equal((byte[])[0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A, 0x20, 0x00, 0x00, 0x00], header);
        Assert.Equal(ProxyHeaderStatus.Parsed, ProxyHeaderParser.TryParse(header, out var parsed, out _));
        Assert.Equal(new ProxyHeader(16, null, null, null, null), parsed);
    }

    [Fact]
    public void Local_None_Empty() => Assert.Empty(ProxyHeaderWriter.LocalHeaderOf(ProxyProtocolVersion.None));

    /// <summary>
    /// Section 2.2.1: the ALPN (0x01) and authority (0x02) TLVs a connection arrived with follow the addresses, and the
    /// header's length counts them; the parser reads back what was written.
    /// </summary>
    [Fact]
    public void V2_AlpnAndAuthority_TlvsAfterTheAddresses()
    {
        byte[] expected =
        [
            0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A,
            0x21, 0x11, 0x00, 0x1F,
            192, 168, 0, 1,
            192, 168, 0, 11,
            0xDC, 0x04,
            0x01, 0xBB,
            0x01, 0x00, 0x02, (byte)'h', (byte)'2',
            0x02, 0x00, 0x0B, .. "example.com"u8,
        ];
        var output = new byte[ProxyHeaderWriter.MaxLength];
        var written = output[..ProxyHeaderWriter.Write(output, ProxyProtocolVersion.V2, IPEndPoint.Parse("192.168.0.1:56324"), IPEndPoint.Parse("192.168.0.11:443"), "h2", "example.com")];

        Assert.Equal(expected, written);
        Assert.Equal(ProxyHeaderStatus.Parsed, ProxyHeaderParser.TryParse(written, out var parsed, out _));
        Assert.Equal(("h2", "example.com"), (parsed.Alpn, parsed.Authority));
    }

    [Fact]
    public void V2_AuthorityOnly_OneTlv()
    {
        var header = ProxyHeaderWriter.HeaderOf(ProxyProtocolVersion.V2, IPEndPoint.Parse("10.0.0.7:40000"), IPEndPoint.Parse("10.0.0.1:9900"), null, "a.example");

        Assert.Equal((byte[])[0x00, 0x18], header[14..16]);
        Assert.Equal((byte[])[0x02, 0x00, 0x09, .. "a.example"u8], header[28..]);
    }

    /// <summary>v1 has no TLVs (section 2.1): the line is the same with or without them.</summary>
    [Fact]
    public void V1_AlpnAndAuthority_NotWritten()
        => Assert.Equal(
            "PROXY TCP4 10.0.0.7 10.0.0.1 40000 9900\r\n"u8.ToArray(),
            ProxyHeaderWriter.HeaderOf(ProxyProtocolVersion.V1, IPEndPoint.Parse("10.0.0.7:40000"), IPEndPoint.Parse("10.0.0.1:9900"), "h2", "a.example"));

    /// <summary>The longest values the parser takes, with IPv6 addresses, fit <see cref="ProxyHeaderWriter.MaxLength"/>.</summary>
    [Fact]
    public void V2_LongestTlvs_FitTheMaximum()
    {
        var longest = new string('a', ProxyHeaderWriter.MaxTlvText);
        var header = ProxyHeaderWriter.HeaderOf(ProxyProtocolVersion.V2, IPEndPoint.Parse("[2001:db8::1]:1"), IPEndPoint.Parse("[::1]:2"), longest, longest);

        Assert.Equal(ProxyHeaderWriter.MaxLength, header.Length);
    }
}
