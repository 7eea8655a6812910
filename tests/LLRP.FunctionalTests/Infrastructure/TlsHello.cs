namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>
/// The extensions of the ClientHello or ServerHello that opens a TLS byte stream (RFC 8446 §4.1.2, §4.1.3; both are
/// sent in the clear), to see on the wire what the TLS stacks do not report: the SNI sent, and whether a session was
/// offered for resumption and accepted (<c>pre_shared_key</c>, RFC 8446 §4.2.11).
/// </summary>
public static class TlsHello
{
    /// <summary><c>server_name</c> (RFC 6066 §3).</summary>
    public const int ServerName = 0;

    /// <summary><c>pre_shared_key</c>: in a ClientHello, a session offered for resumption; in a ServerHello, the offer accepted.</summary>
    public const int PreSharedKey = 41;

    /// <summary>The extensions, by type, of the hello message at the start of <paramref name="stream"/>.</summary>
    public static Dictionary<int, byte[]> Extensions(byte[] stream)
    {
        // Record header (type 22 = handshake, version, length), then the handshake header (type, 3-byte length).
        Assert.True(stream.Length > 9 && stream[0] == 22, "The stream does not start with a TLS handshake record.");
        var isClientHello = stream[5] switch
        {
            1 => true,
            2 => false,
            var other => throw new InvalidDataException($"Handshake message {other} is not a hello."),
        };
        var position = 9 + 2 + 32;
        position += 1 + stream[position];
        position += isClientHello ? 2 + ReadUInt16(stream, position) : 2;
        position += isClientHello ? 1 + stream[position] : 1;
        var end = position + 2 + ReadUInt16(stream, position);
        position += 2;
        var extensions = new Dictionary<int, byte[]>();
        while (position < end)
        {
            var type = ReadUInt16(stream, position);
            var length = ReadUInt16(stream, position + 2);
            extensions[type] = stream.AsSpan(position + 4, length).ToArray();
            position += 4 + length;
        }

        return extensions;
    }

    /// <summary>The host name of a <c>server_name</c> extension's data (one entry of type host_name).</summary>
    public static string HostName(byte[] serverName) => System.Text.Encoding.ASCII.GetString(serverName.AsSpan(5));

    private static int ReadUInt16(byte[] bytes, int position) => (bytes[position] << 8) | bytes[position + 1];
}
