using System.Buffers;
using LLRP.Http2.Codec;
using Microsoft.AspNetCore.Http;

namespace LLRP.Http2.Server;

/// <summary>
/// A response's fields (or trailers) as HPACK field lines (<see cref="HpackEncoder"/>): names lowercase, values Latin-1,
/// and the connection-specific fields an HTTP/2 response must not carry left out (RFC 9113 §8.2.2).
/// </summary>
internal static class ResponseFieldEncoding
{
    private const int ScratchSize = 1024;

    /// <param name="block">Where the field lines go.</param>
    /// <param name="fields">The stream's own fields: a <see cref="HeaderDictionary"/>, whose enumerator is a struct.</param>
    public static void Encode(ArrayBufferWriter<byte> block, HeaderDictionary fields)
    {
        Span<byte> scratch = stackalloc byte[ScratchSize];
        foreach (var (name, values) in fields)
        {
            if (IsConnectionSpecific(name))
            {
                continue;
            }

            foreach (var value in values)
            {
                HpackEncoder.EncodeField(block, name, value ?? "", scratch);
            }
        }
    }

    private static bool IsConnectionSpecific(string name)
        => name.Equals("Connection", StringComparison.OrdinalIgnoreCase) || name.Equals("Keep-Alive", StringComparison.OrdinalIgnoreCase)
           || name.Equals("Proxy-Connection", StringComparison.OrdinalIgnoreCase) || name.Equals("Transfer-Encoding", StringComparison.OrdinalIgnoreCase)
           || name.Equals("Upgrade", StringComparison.OrdinalIgnoreCase);
}
