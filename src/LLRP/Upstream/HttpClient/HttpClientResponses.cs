using System.Text;

namespace LLRP.Upstream.HttpClient;

/// <summary>Responses the HttpClient modes write themselves for what HttpClient cannot forward; built once, with <c>Connection: close</c>.</summary>
internal static class HttpClientResponses
{
    private const string AsteriskMessage = "501 Not Implemented: HttpClient cannot send an asterisk-form request target (OPTIONS *)\n";

    private static readonly byte[] AsteriskBytes = Encoding.ASCII.GetBytes(
        $"HTTP/1.1 501 Not Implemented\r\nContent-Type: text/plain\r\nContent-Length: {AsteriskMessage.Length}\r\nConnection: close\r\n\r\n{AsteriskMessage}");

    /// <summary>For <c>OPTIONS *</c> (RFC 9112 §3.2.4): HttpClient writes <c>Uri.PathAndQuery</c>, which always starts with '/'.</summary>
    public static ReadOnlySpan<byte> AsteriskTarget => AsteriskBytes;

    /// <summary>True for the asterisk-form target.</summary>
    public static bool IsAsterisk(ReadOnlySpan<byte> path) => path.Length == 1 && path[0] == (byte)'*';
}
