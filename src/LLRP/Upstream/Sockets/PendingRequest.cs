namespace LLRP.Proxy;

/// <summary>What the response side needs to know about a request forwarded upstream and not yet answered.</summary>
internal readonly record struct PendingRequest(
    long Start,
    long End,
    bool IsHead,
    bool IsHttp10,
    bool IsPersistent,
    bool IsIdempotent);
