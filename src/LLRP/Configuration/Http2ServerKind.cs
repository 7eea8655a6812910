namespace LLRP.Configuration;

/// <summary>Which HTTP/2 server decodes the proxy listeners' HTTP/2 connections (key <c>http2.server</c>).</summary>
public enum Http2ServerKind
{
    /// <summary>Kestrel's HTTP/2 server, whose requests reach the front end through the application's pipeline.</summary>
    Kestrel,

    /// <summary>LLRP's own (<c>LLRP.Http2.Server</c>): one read loop per connection, responses of all streams flushed once per batch.</summary>
    Llrp,
}
