using System.Buffers.Binary;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using LLRP.Configuration.Routes;

namespace LLRP.ProxyProtocol;

/// <summary>
/// Writes the PROXY protocol header (HAProxy's proxy-protocol.txt) that tells a destination where a relayed connection
/// came from: <paramref name="source"/> is the client's address, destination the address the client connected to. Both
/// are written in one family: an IPv4-mapped IPv6 address as IPv4, and when the two still differ, the IPv4 one mapped to
/// IPv6 (section 2.1 wants both of one family).
/// </summary>
internal static class ProxyHeaderWriter
{
    /// <summary>
    /// The longest header this writes: a v1 line is at most 107 bytes (section 2.1); a v2 header with IPv6 addresses 52,
    /// and with an ALPN and an authority TLV of <see cref="MaxTlvText"/> bytes each, 568.
    /// </summary>
    public const int MaxLength = 16 + 36 + (2 * (3 + MaxTlvText));

    /// <summary>The longest ALPN or authority value taken from a header and sent on (<see cref="ProxyHeaderParser"/>).</summary>
    public const int MaxTlvText = 255;

    /// <summary>PP2_TYPE_ALPN (section 2.2.1): the application protocol the client chose, e.g. <c>h2</c>.</summary>
    public const byte AlpnType = 0x01;

    /// <summary>PP2_TYPE_AUTHORITY (section 2.2.2): the host name the client asked for (its TLS SNI).</summary>
    public const byte AuthorityType = 0x02;

    /// <summary>The v2 header's first 12 bytes (section 2.2).</summary>
    public static ReadOnlySpan<byte> Signature => [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A];

    /// <summary>
    /// The header of <paramref name="version"/> from the client's address to the one it connected to; empty for none, or
    /// when either is not an IP address. A v2 header carries <paramref name="alpn"/> and <paramref name="authority"/> as
    /// TLVs when given (those of the header the connection arrived with, passed on as HAProxy does); v1 has no room for them.
    /// </summary>
    public static byte[] HeaderOf(ProxyProtocolVersion version, EndPoint? client, EndPoint? local, string? alpn = null, string? authority = null)
    {
        if (version == ProxyProtocolVersion.None || client is not IPEndPoint source || local is not IPEndPoint destination)
        {
            return [];
        }

        Span<byte> header = stackalloc byte[MaxLength];
        return header[..Write(header, version, source, destination, alpn, authority)].ToArray();
    }

    /// <summary>
    /// The header of a sender's own connection, a health check's (proxy-protocol.txt §2.1, §2.2): v1's <c>PROXY UNKNOWN</c>
    /// line, v2's LOCAL command with the UNSPEC family and no addresses; the receiver keeps the connection's own addresses.
    /// Empty for none.
    /// </summary>
    public static byte[] LocalHeaderOf(ProxyProtocolVersion version) => version switch
    {
        ProxyProtocolVersion.V1 => "PROXY UNKNOWN\r\n"u8.ToArray(),
        ProxyProtocolVersion.V2 => [.. Signature, 0x20, 0x00, 0x00, 0x00],
        _ => [],
    };

    /// <summary>
    /// Writes the header into <paramref name="output"/> (at least <see cref="MaxLength"/> bytes); returns its length.
    /// <paramref name="alpn"/> and <paramref name="authority"/>, v2's TLVs, are at most <see cref="MaxTlvText"/> ASCII
    /// characters each (as <see cref="ProxyHeaderParser"/> takes them).
    /// </summary>
    public static int Write(Span<byte> output, ProxyProtocolVersion version, IPEndPoint source, IPEndPoint destination, string? alpn = null, string? authority = null)
    {
        var (from, to) = OneFamily(source.Address, destination.Address);
        return version switch
        {
            ProxyProtocolVersion.V1 => WriteV1(output, from, to, source.Port, destination.Port),
            ProxyProtocolVersion.V2 => WriteV2(output, from, to, source.Port, destination.Port, alpn, authority),
            _ => throw new ArgumentOutOfRangeException(nameof(version), version, "No header is written without a version."),
        };
    }

    /// <summary>Section 2.1: <c>PROXY TCP4|TCP6 src dst sport dport\r\n</c>, addresses in their canonical text.</summary>
    private static int WriteV1(Span<byte> output, IPAddress from, IPAddress to, int fromPort, int toPort)
    {
        var family = from.AddressFamily == AddressFamily.InterNetwork ? "TCP4" : "TCP6";
        var line = string.Create(CultureInfo.InvariantCulture, $"PROXY {family} {from} {to} {fromPort} {toPort}\r\n");
        return Encoding.ASCII.GetBytes(line, output);
    }

    /// <summary>
    /// Section 2.2: the signature, version 2 with the PROXY command, TCP over IPv4 or IPv6, the length of what follows, the
    /// addresses, the ports, then the ALPN and authority TLVs given (section 2.2.1, 2.2.2).
    /// </summary>
    private static int WriteV2(Span<byte> output, IPAddress from, IPAddress to, int fromPort, int toPort, string? alpn, string? authority)
    {
        var ipv4 = from.AddressFamily == AddressFamily.InterNetwork;
        var addressLength = ipv4 ? 4 : 16;
        Signature.CopyTo(output);
        output[12] = 0x21;
        output[13] = ipv4 ? (byte)0x11 : (byte)0x21;
        var at = 16;
        from.TryWriteBytes(output[at..], out _);
        at += addressLength;
        to.TryWriteBytes(output[at..], out _);
        at += addressLength;
        BinaryPrimitives.WriteUInt16BigEndian(output[at..], (ushort)fromPort);
        BinaryPrimitives.WriteUInt16BigEndian(output[(at + 2)..], (ushort)toPort);
        at += 4;
        at += WriteTlv(output[at..], AlpnType, alpn);
        at += WriteTlv(output[at..], AuthorityType, authority);
        BinaryPrimitives.WriteUInt16BigEndian(output[14..], (ushort)(at - 16));
        return at;
    }

    /// <returns>The TLV's length; 0 when <paramref name="value"/> is null, and none is written.</returns>
    private static int WriteTlv(Span<byte> output, byte type, string? value)
    {
        if (value is null)
        {
            return 0;
        }

        output[0] = type;
        var length = Encoding.ASCII.GetBytes(value, output[3..]);
        BinaryPrimitives.WriteUInt16BigEndian(output[1..], (ushort)length);
        return 3 + length;
    }

    private static (IPAddress From, IPAddress To) OneFamily(IPAddress from, IPAddress to)
    {
        from = Unscoped(from.IsIPv4MappedToIPv6 ? from.MapToIPv4() : from);
        to = Unscoped(to.IsIPv4MappedToIPv6 ? to.MapToIPv4() : to);
        return from.AddressFamily == to.AddressFamily ? (from, to) : (from.MapToIPv6(), to.MapToIPv6());
    }

    /// <summary>The address without an IPv6 scope (<c>%eth0</c>), which the header has no room for.</summary>
    private static IPAddress Unscoped(IPAddress address)
        => address.AddressFamily == AddressFamily.InterNetworkV6 && address.ScopeId != 0 ? new IPAddress(address.GetAddressBytes()) : address;
}
