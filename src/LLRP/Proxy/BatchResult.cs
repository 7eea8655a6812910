namespace LLRP.Proxy;

/// <summary>What forwarding the requests of one read left for the session.</summary>
/// <param name="Close">The client connection ends now.</param>
/// <param name="HeadPending">An incomplete request head waits for more bytes: the request-head deadline runs.</param>
internal readonly record struct BatchResult(bool Close, bool HeadPending);
