namespace LLRP.Upstream.Http2Client;

/// <summary>How a cluster's streams to one destination go in raw mode (<see cref="Http2StreamExchange.Carriage"/>).</summary>
internal enum Http2Carriage
{
    /// <summary>Not over the own HTTP/2 client: HTTP/2 not asked, one connection only, or a PROXY protocol header to send.</summary>
    Elsewhere,

    /// <summary>Over the own HTTP/2 client; a destination that does not speak HTTP/2 fails the stream.</summary>
    Http2,

    /// <summary>Over the own HTTP/2 client, ALPN offering <c>http/1.1</c> after <c>h2</c>: a destination choosing it fails the stream before anything was sent, and its streams go over HTTP/1.1 from then on.</summary>
    Http2OrHttp11,

    /// <summary>The <c>https</c> destination chose <c>http/1.1</c> by ALPN less than the idle timeout ago: over raw mode's HTTP/1.1 connections.</summary>
    Http11,
}
