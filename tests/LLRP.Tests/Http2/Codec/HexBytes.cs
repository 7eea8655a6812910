namespace LLRP.Tests.Http2.Codec;

/// <summary>Bytes written as hex digits, as RFC 7541 Appendix C prints them; spaces and line breaks are ignored.</summary>
internal static class HexBytes
{
    public static byte[] Parse(string hex) => Convert.FromHexString(string.Concat(hex.Where(char.IsAsciiHexDigit)));
}
