namespace LLRP.Configuration;

/// <summary>Which client carries HTTP/2 streams to destinations that speak HTTP/2, in raw mode (key <c>http2.client</c>).</summary>
public enum Http2ClientKind
{
    /// <summary>SocketsHttpHandler's HTTP/2, with multiple connections per destination.</summary>
    HttpClient,

    /// <summary>Raw mode's own (<c>LLRP.Upstream.Http2Client</c>), raw mode's default: h2c by prior knowledge, h2 by ALPN, one read loop per connection, writes of all streams flushed once per batch.</summary>
    Llrp,
}
