using System.Security.Cryptography;
using System.Text;

namespace LLRP.FaultRun;

/// <summary>
/// The bodies of one exchange, derived from its request id alone: whoever knows the id knows every byte the request and
/// the response must carry, so a body delivered to the wrong request, cut, or altered shows as a different hash.
/// </summary>
internal static class ExchangeBodies
{
    /// <summary>Every response body has at least this many bytes, so that a destination can always cut one in the middle.</summary>
    public const int MinResponseLength = 16;

    public static byte[] Request(string id, int maxLength) => Derive("request " + id, 0, maxLength);

    public static byte[] Response(string id, int maxLength) => Derive("response " + id, MinResponseLength, maxLength);

    public static string Hash(ReadOnlySpan<byte> body) => Convert.ToHexString(SHA256.HashData(body));

    private static byte[] Derive(string label, int minLength, int maxLength)
    {
        var seed = SHA256.HashData(Encoding.ASCII.GetBytes(label));
        var length = minLength + (int)(BitConverter.ToUInt32(seed) % (uint)(maxLength - minLength + 1));
        var body = new byte[length];
        new Random(BitConverter.ToInt32(seed, 4)).NextBytes(body);
        return body;
    }
}
