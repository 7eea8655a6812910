namespace LLRP.Diagnostics.AccessLogging;

/// <summary>The fields of one relayed TCP connection's access log line (<see cref="TcpSessionLine"/>).</summary>
/// <param name="Client">The client's address.</param>
/// <param name="Time">When the line was written, in UTC.</param>
/// <param name="Route">The TCP route's id.</param>
/// <param name="Destination">The destination's name; null when none was connected.</param>
/// <param name="BytesReceived">Bytes read from the client and relayed.</param>
/// <param name="BytesSent">Bytes relayed to the client.</param>
/// <param name="SessionMs">Milliseconds from the accept to the close.</param>
/// <param name="End">How it ended, in one word (<c>closed</c>, <c>client_reset</c>, <c>idle_timeout</c>, …).</param>
/// <param name="ProxyProtocol">The route accepts the PROXY protocol: the line has the ALPN and authority of its header.</param>
/// <param name="Alpn">The ALPN TLV of the connection's PROXY protocol header; null without.</param>
/// <param name="Authority">The authority TLV of the connection's PROXY protocol header; null without.</param>
internal readonly record struct TcpSessionRecord(
    byte[] Client, DateTime Time, string Route, string? Destination, long BytesReceived, long BytesSent, long SessionMs, string End,
    bool ProxyProtocol = false, string? Alpn = null, string? Authority = null);
