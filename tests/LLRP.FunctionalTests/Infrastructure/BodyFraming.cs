namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>How a received message delimited its body (RFC 9112 §6.3).</summary>
public enum BodyFraming
{
    /// <summary>No body: a request without framing fields, HEAD, 1xx, 204 or 304.</summary>
    None,

    /// <summary>Exactly Content-Length bytes.</summary>
    ContentLength,

    /// <summary>The chunked transfer coding (RFC 9112 §7.1).</summary>
    Chunked,

    /// <summary>Everything until the sender closed the connection.</summary>
    CloseDelimited,
}
