namespace LLRP.Routing;

/// <summary>A request's authority split into host and port (RFC 3986 §3.2.2, §3.2.3); the port is the scheme's when absent or empty (RFC 9110 §4.2.3).</summary>
internal readonly ref struct RequestAuthority
{
    public RequestAuthority(ReadOnlySpan<byte> authority, int defaultPort)
    {
        var nameEnd = authority.Length > 0 && authority[0] == (byte)'['
            ? authority.IndexOf((byte)']') + 1
            : authority.IndexOf((byte)':');
        var hasPort = nameEnd > 0 && nameEnd < authority.Length && authority[nameEnd] == (byte)':';
        Name = hasPort ? authority[..nameEnd] : authority;
        var portText = hasPort ? authority[(nameEnd + 1)..] : default;
        Port = portText.IsEmpty
            ? defaultPort > 0 ? defaultPort : -1
            : int.TryParse(portText, out var port) && port is >= 0 and <= 65535 ? port : -1;
    }

    public ReadOnlySpan<byte> Name { get; }

    /// <summary>The port, or -1 when unknown or invalid.</summary>
    public int Port { get; }
}
