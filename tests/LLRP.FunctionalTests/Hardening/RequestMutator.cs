using System.Text;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>
/// Builds fuzz cases from a small corpus of valid requests (GET, POST with Content-Length, POST chunked, pipelined
/// pairs): each is rendered with random framing variations (duplicated, folded or conflicting fields, odd
/// Content-Length values, Transfer-Encoding lists, chunk sizes split, padded, extended), then damaged byte by byte with
/// the bytes HTTP parsers disagree on (CR, LF, SP, HTAB, NUL, digits, signs, commas). Deterministic for one <see cref="Random"/>.
/// </summary>
public static class RequestMutator
{
    private static readonly byte[] Alphabet = "\r\n \t\0-+,;:=\"0123456789aAfFxX"u8.ToArray();

    private static readonly string[] ContentLengthValues =
        ["0", "+{0}", "-{0}", "0{0}", "{0}, {0}", "{0},{1}", " {0} ", "{0}\t", "0x{0}", "{1}", "99999999999999999999", "", "{0} {0}", "1_0"];

    private static readonly string[] TransferEncodings =
        ["chunked", " chunked", "Chunked", "chunked, chunked", "identity, chunked", "chunked;x=1", "gzip, chunked", "chunked, ", ",chunked", "\tchunked", "chunk", "chunked\u000b"];

    private static readonly string[] ExtraFields =
    [
        "Connection: close", "Connection: keep-alive", "Connection: Content-Length", "Connection: Transfer-Encoding, Host", "Connection: Upgrade",
        "Upgrade: websocket", "Expect: 100-continue", "Expect: 200-ok", "TE: trailers", "Trailer: X-T", "Host: second.test", "Host:", "Host: a b",
        "Content-Length: 0", "Transfer-Encoding: chunked", "Keep-Alive: timeout=5", "Proxy-Connection: keep-alive", "X-Forwarded-For: 1.2.3.4",
    ];

    /// <summary>One fuzz case: one or two requests, varied and then damaged 0 to 3 times (0 keeps it valid).</summary>
    public static byte[] CreateCase(Random random)
    {
        var text = random.Next(4) == 3 ? RenderRequest(random) + RenderRequest(random) : RenderRequest(random);
        var bytes = Encoding.Latin1.GetBytes(text).ToList();
        for (var damage = random.Next(4); damage > 0; damage--)
        {
            Damage(bytes, random);
        }

        return bytes.ToArray();
    }

    private static string RenderRequest(Random random)
    {
        var kind = random.Next(3);
        var target = random.Next(10) == 0 ? "http://fuzz.test/abs?x=1" : $"/fuzz/{random.Next(1000)}?q={random.Next(10)}";
        var version = random.Next(20) == 0 ? "HTTP/1.0" : "HTTP/1.1";
        var method = kind == 0 ? "GET" : "POST";
        var body = new string('b', random.Next(0, 40));
        var fields = new List<string> { "Host: fuzz.test", "User-Agent: fuzz", "Accept: */*" };
        switch (kind)
        {
            case 1:
                fields.Add($"Content-Length: {ContentLength(body.Length, random)}");
                break;
            case 2:
                fields.Add($"Transfer-Encoding: {(random.Next(3) == 0 ? Pick(TransferEncodings, random) : "chunked")}");
                body = Chunk(body, random);
                break;
        }

        if (random.Next(3) == 0)
        {
            fields.Insert(random.Next(fields.Count + 1), Pick(ExtraFields, random));
        }

        if (random.Next(6) == 0)
        {
            var line = random.Next(fields.Count);
            fields.Insert(line, fields[line]);
        }

        if (random.Next(10) == 0)
        {
            var line = random.Next(fields.Count);
            fields[line] = fields[line].Insert(fields[line].Length / 2, random.Next(2) == 0 ? "\r\n " : "\r\n\t");
        }

        if (random.Next(10) == 0)
        {
            fields.RemoveAt(random.Next(fields.Count));
        }

        var head = new StringBuilder($"{method} {target} {version}\r\n");
        foreach (var field in fields)
        {
            head.Append(field).Append("\r\n");
        }

        return head.Append("\r\n").Append(body).ToString();
    }

    private static string ContentLength(int length, Random random) =>
        random.Next(3) == 0
            ? string.Format(null, Pick(ContentLengthValues, random), length, length + random.Next(-3, 4))
            : length.ToString(null, null);

    /// <summary>The chunked coding of <paramref name="data"/>, split at random, with size padding, hex case, extensions and trailers varied.</summary>
    private static string Chunk(string data, Random random)
    {
        var body = new StringBuilder();
        for (var offset = 0; offset < data.Length;)
        {
            var size = Math.Min(data.Length - offset, random.Next(1, 16));
            var sizeText = size.ToString(random.Next(2) == 0 ? "x" : "X", null);
            if (random.Next(8) == 0)
            {
                sizeText = "000" + sizeText;
            }

            body.Append(sizeText).Append(ChunkExtension(random)).Append("\r\n").Append(data, offset, size).Append("\r\n");
            offset += size;
        }

        body.Append(random.Next(8) == 0 ? "00" : "0").Append(ChunkExtension(random)).Append("\r\n");
        if (random.Next(6) == 0)
        {
            body.Append(random.Next(2) == 0 ? "X-T: trailer\r\n" : "Content-Length: 5\r\n");
        }

        return body.Append("\r\n").ToString();
    }

    private static string ChunkExtension(Random random) => random.Next(10) switch
    {
        0 => ";a=b",
        1 => ";a=\"q v\"",
        2 => " ;a",
        3 => ";",
        _ => "",
    };

    /// <summary>Inserts, removes or replaces one byte, duplicates a span, or truncates.</summary>
    private static void Damage(List<byte> bytes, Random random)
    {
        if (bytes.Count == 0)
        {
            return;
        }

        var at = random.Next(bytes.Count);
        switch (random.Next(10))
        {
            case < 4:
                bytes.Insert(at, Pick(Alphabet, random));
                break;
            case < 6:
                bytes.RemoveAt(at);
                break;
            case < 8:
                bytes[at] = Pick(Alphabet, random);
                break;
            case 8:
                bytes.InsertRange(at, bytes.GetRange(at, Math.Min(bytes.Count - at, random.Next(1, 30))));
                break;
            default:
                bytes.RemoveRange(at, bytes.Count - at);
                break;
        }
    }

    private static T Pick<T>(T[] values, Random random) => values[random.Next(values.Length)];
}
