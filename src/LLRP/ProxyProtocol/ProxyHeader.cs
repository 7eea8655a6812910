using System.Net;

namespace LLRP.ProxyProtocol;

/// <summary>A parsed PROXY protocol header.</summary>
/// <param name="Length">Its bytes on the wire: what follows is the client's.</param>
/// <param name="Source">The client's address it carries; null for v2's LOCAL command, v1's UNKNOWN and v2's UNSPEC family (the connection's own address then stands).</param>
/// <param name="Destination">The address the client connected to; null with <paramref name="Source"/>.</param>
/// <param name="Alpn">v2's PP2_TYPE_ALPN TLV, as ASCII; null without.</param>
/// <param name="Authority">v2's PP2_TYPE_AUTHORITY TLV (the TLS SNI), as ASCII; null without.</param>
internal readonly record struct ProxyHeader(int Length, IPEndPoint? Source, IPEndPoint? Destination, string? Alpn, string? Authority);
