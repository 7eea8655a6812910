using System.Security.Cryptography;
using System.Text;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>The bodies the bundled origin produces, to compare with what came through the proxy.</summary>
public static class DownstreamBody
{
    /// <summary>The body of <c>/?s=N</c>: byte i is 'a' + i % 26.</summary>
    public static byte[] Pattern(int length)
    {
        var body = new byte[length];
        for (var i = 0; i < length; i++)
        {
            body[i] = (byte)('a' + i % 26);
        }

        return body;
    }

    /// <inheritdoc cref="Pattern"/>
    public static string PatternText(int length) => Encoding.Latin1.GetString(Pattern(length));

    /// <summary>The body of <c>/sink</c> after receiving <paramref name="body"/>: its length and its SHA-256.</summary>
    public static string SinkReport(byte[] body) => $"{body.Length} {Sha256(body)}";

    public static string Sha256(byte[] bytes) => Convert.ToHexStringLower(SHA256.HashData(bytes));
}
