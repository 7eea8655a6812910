namespace LLRP.Diagnostics.AccessLogging;

/// <summary>
/// The fields of one access log line. Empty spans, null strings, a status of 0 and a time of -1 are unknown
/// (<c>-</c> in the combined format, <c>null</c> in JSON).
/// </summary>
internal readonly ref struct AccessLogRecord
{
    /// <summary>The client's address, as <c>X-Forwarded-For</c> gets it.</summary>
    public ReadOnlySpan<byte> Client { get; init; }

    /// <summary>When the line was written, in UTC.</summary>
    public DateTime Time { get; init; }

    /// <summary>The request line as received (method, target, version); empty when the request did not parse.</summary>
    public ReadOnlySpan<byte> Request { get; init; }

    /// <summary>The status the client was sent.</summary>
    public int Status { get; init; }

    /// <summary>Bytes of the response body sent to the client (payload only, without chunk framing).</summary>
    public long BodyBytes { get; init; }

    public ReadOnlySpan<byte> Referer { get; init; }

    public ReadOnlySpan<byte> UserAgent { get; init; }

    /// <summary>The route's id; null when no route took the request.</summary>
    public string? Route { get; init; }

    /// <summary>The destination's name; null when none was chosen.</summary>
    public string? Destination { get; init; }

    /// <summary>The status the destination answered; 0 for an answer the proxy made itself.</summary>
    public int UpstreamStatus { get; init; }

    /// <summary>Milliseconds from the request's head read to its response's end; -1 when unknown.</summary>
    public long RequestMs { get; init; }

    /// <summary>Milliseconds from the destination's choice (connect and queue included) to its response head; -1 when none answered.</summary>
    public long UpstreamMs { get; init; }

    /// <summary>The listener accepts the PROXY protocol: the line has the ALPN and authority TLVs of the connection's header.</summary>
    public bool ProxyProtocol { get; init; }

    /// <summary>The ALPN TLV of the connection's PROXY protocol header; null without.</summary>
    public string? ProxyAlpn { get; init; }

    /// <summary>The authority TLV of the connection's PROXY protocol header; null without.</summary>
    public string? ProxyAuthority { get; init; }
}
