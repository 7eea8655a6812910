namespace LLRP.ProxyProtocol;

/// <summary>What <see cref="ProxyHeaderParser.TryParse"/> made of the bytes it was given.</summary>
internal enum ProxyHeaderStatus
{
    /// <summary>A valid beginning of a header: more bytes are needed.</summary>
    NeedMore,

    /// <summary>A whole header, valid.</summary>
    Parsed,

    /// <summary>Not a header, or a malformed one: the connection is closed.</summary>
    Invalid,
}
