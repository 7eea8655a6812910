namespace LLRP.ProxyProtocol;

/// <summary>Why a PROXY protocol header was refused (HAProxy's proxy-protocol.txt).</summary>
internal enum ProxyHeaderError
{
    None,

    /// <summary>Neither <c>PROXY </c> (v1) nor the 12-byte v2 signature.</summary>
    BadSignature,

    /// <summary>A v1 line without its CRLF within 107 bytes (section 2.1).</summary>
    LineTooLong,

    /// <summary>A v1 line whose protocol is not TCP4, TCP6 or UNKNOWN, or whose fields are not single-space separated.</summary>
    BadToken,

    /// <summary>A v1 address that is not one of its protocol's family.</summary>
    BadAddress,

    /// <summary>A v1 port that is not a decimal from 0 to 65535 without a leading zero.</summary>
    BadPort,

    /// <summary>A v2 version other than 2 (section 2.2).</summary>
    BadVersion,

    /// <summary>A v2 command other than LOCAL or PROXY.</summary>
    BadCommand,

    /// <summary>A v2 family other than TCP over IPv4 or IPv6 (or UNSPEC) with the PROXY command.</summary>
    BadFamily,

    /// <summary>A v2 header longer than <see cref="ProxyHeaderParser.MaxLength"/>.</summary>
    TooLong,

    /// <summary>A v2 address block shorter than its family's addresses.</summary>
    AddressesTruncated,

    /// <summary>A v2 TLV that runs past the header's end.</summary>
    BadTlv,

    /// <summary>A v2 ALPN or authority TLV that is empty, longer than 255 bytes, not visible ASCII, or given twice.</summary>
    BadTlvValue,
}
