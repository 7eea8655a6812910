using LLRP.Upstream.HttpClient;

namespace LLRP.Http2;

/// <summary>
/// What the HTTP/2 front end needs for one request stream and can use again for the next: the rendered head and its
/// buffer, and the forwarder with its caches. Held by one stream at a time (<see cref="StreamPartsPool"/>).
/// </summary>
internal sealed class StreamParts(HttpMessageInvoker invoker, int maxResponseHeadSize)
{
    public RenderedRequestHead Head { get; } = new();

    public StreamForwarder Forwarder { get; } = new(invoker, maxResponseHeadSize);
}
