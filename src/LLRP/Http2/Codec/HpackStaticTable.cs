namespace LLRP.Http2.Codec;

/// <summary>The HPACK static table (RFC 7541 Appendix A): indexes 1 to 61.</summary>
internal static class HpackStaticTable
{
    public const int Count = 61;

    private static readonly (byte[] Name, byte[] Value)[] Entries =
    [
        (":authority"u8.ToArray(), []),
        (":method"u8.ToArray(), "GET"u8.ToArray()),
        (":method"u8.ToArray(), "POST"u8.ToArray()),
        (":path"u8.ToArray(), "/"u8.ToArray()),
        (":path"u8.ToArray(), "/index.html"u8.ToArray()),
        (":scheme"u8.ToArray(), "http"u8.ToArray()),
        (":scheme"u8.ToArray(), "https"u8.ToArray()),
        (":status"u8.ToArray(), "200"u8.ToArray()),
        (":status"u8.ToArray(), "204"u8.ToArray()),
        (":status"u8.ToArray(), "206"u8.ToArray()),
        (":status"u8.ToArray(), "304"u8.ToArray()),
        (":status"u8.ToArray(), "400"u8.ToArray()),
        (":status"u8.ToArray(), "404"u8.ToArray()),
        (":status"u8.ToArray(), "500"u8.ToArray()),
        ("accept-charset"u8.ToArray(), []),
        ("accept-encoding"u8.ToArray(), "gzip, deflate"u8.ToArray()),
        ("accept-language"u8.ToArray(), []),
        ("accept-ranges"u8.ToArray(), []),
        ("accept"u8.ToArray(), []),
        ("access-control-allow-origin"u8.ToArray(), []),
        ("age"u8.ToArray(), []),
        ("allow"u8.ToArray(), []),
        ("authorization"u8.ToArray(), []),
        ("cache-control"u8.ToArray(), []),
        ("content-disposition"u8.ToArray(), []),
        ("content-encoding"u8.ToArray(), []),
        ("content-language"u8.ToArray(), []),
        ("content-length"u8.ToArray(), []),
        ("content-location"u8.ToArray(), []),
        ("content-range"u8.ToArray(), []),
        ("content-type"u8.ToArray(), []),
        ("cookie"u8.ToArray(), []),
        ("date"u8.ToArray(), []),
        ("etag"u8.ToArray(), []),
        ("expect"u8.ToArray(), []),
        ("expires"u8.ToArray(), []),
        ("from"u8.ToArray(), []),
        ("host"u8.ToArray(), []),
        ("if-match"u8.ToArray(), []),
        ("if-modified-since"u8.ToArray(), []),
        ("if-none-match"u8.ToArray(), []),
        ("if-range"u8.ToArray(), []),
        ("if-unmodified-since"u8.ToArray(), []),
        ("last-modified"u8.ToArray(), []),
        ("link"u8.ToArray(), []),
        ("location"u8.ToArray(), []),
        ("max-forwards"u8.ToArray(), []),
        ("proxy-authenticate"u8.ToArray(), []),
        ("proxy-authorization"u8.ToArray(), []),
        ("range"u8.ToArray(), []),
        ("referer"u8.ToArray(), []),
        ("refresh"u8.ToArray(), []),
        ("retry-after"u8.ToArray(), []),
        ("server"u8.ToArray(), []),
        ("set-cookie"u8.ToArray(), []),
        ("strict-transport-security"u8.ToArray(), []),
        ("transfer-encoding"u8.ToArray(), []),
        ("user-agent"u8.ToArray(), []),
        ("vary"u8.ToArray(), []),
        ("via"u8.ToArray(), []),
        ("www-authenticate"u8.ToArray(), []),
    ];

    /// <summary>The indexes (1-based, rising) of the entries by their name's length: a name is compared only with those of its length.</summary>
    private static readonly int[][] IndexesByNameLength = [.. Enumerable.Range(0, Entries.Max(entry => entry.Name.Length) + 1)
        .Select(length => Enumerable.Range(1, Count).Where(index => Entries[index - 1].Name.Length == length).ToArray())];

    /// <summary>The name of the entry at <paramref name="index"/>, 1 to <see cref="Count"/>.</summary>
    public static ReadOnlySpan<byte> Name(int index) => Entries[index - 1].Name;

    /// <summary>The value of the entry at <paramref name="index"/>, 1 to <see cref="Count"/>.</summary>
    public static ReadOnlySpan<byte> Value(int index) => Entries[index - 1].Value;

    /// <summary>The lowest index whose name equals <paramref name="name"/> ignoring ASCII case, or 0 when none does.</summary>
    public static int IndexOfName(ReadOnlySpan<byte> name)
    {
        if (name.Length >= IndexesByNameLength.Length)
        {
            return 0;
        }

        foreach (var index in IndexesByNameLength[name.Length])
        {
            if (System.Text.Ascii.EqualsIgnoreCase(Entries[index - 1].Name, name))
            {
                return index;
            }
        }

        return 0;
    }
}
