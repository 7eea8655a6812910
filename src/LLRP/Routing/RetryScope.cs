namespace LLRP.Routing;

/// <summary>Which requests a forwarding failure lets go to another destination.</summary>
internal enum RetryScope
{
    /// <summary>None: the destination may have acted on the request, or the failure is not the destination's.</summary>
    Never,

    /// <summary>Idempotent requests only: the request was sent, and nothing came back (RFC 9110 §9.2.2).</summary>
    Idempotent,

    /// <summary>Every request, whatever its method: nothing of it was sent (<c>retries.unsentAnyMethod</c>).</summary>
    Unsent,
}
