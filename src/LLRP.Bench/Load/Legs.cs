namespace LLRP.Bench.Load;

/// <summary>
/// The schemes of a shape's two legs: client → contender (crank's <c>serverScheme</c>) and contender → origin
/// (<c>downstreamScheme</c>). For direct, the client speaks the client leg's scheme to the origin itself. With
/// <paramref name="ClientHttp2"/>, the client speaks HTTP/2 with prior knowledge (h2c) to the contender, or to the origin's
/// h2c listener for direct; the contender → origin leg stays HTTP/1.1 unless <paramref name="OriginHttp2"/>, where the
/// contender speaks HTTP/2 with prior knowledge (h2c) to an origin listening for HTTP/2 only.
/// </summary>
public readonly record struct Legs(bool ClientTls, bool OriginTls, bool ClientHttp2 = false, bool OriginHttp2 = false)
{
    /// <summary>http on both legs: the shapes whose names carry no scheme.</summary>
    public static Legs Plain => default;

    public string ClientScheme => ClientTls ? "https" : "http";

    public string OriginScheme => OriginTls ? "https" : "http";

    public bool AnyTls => ClientTls || OriginTls;

    /// <summary>e.g. <c>https-http</c>: the prefix of the shapes' names.</summary>
    public string Name => $"{(ClientHttp2 ? "h2c" : ClientScheme)}-{(OriginHttp2 ? "h2c" : OriginScheme)}";
}
