namespace LLRP.Upstream.Sockets;

/// <summary>How streaming a request body upstream ended.</summary>
internal enum BodyPumpResult : byte
{
    Completed,

    /// <summary>Stopped because the response ended first; the rest of the body was not read.</summary>
    Cancelled,

    /// <summary>The client's connection failed (reset) before the end of the body.</summary>
    ClientAborted,

    /// <summary>The body was malformed, too large, or ended before its declared end (the client half-closed).</summary>
    Rejected,

    /// <summary>The upstream stopped accepting the body; its response may still come.</summary>
    UpstreamWriteFailed,
}
