namespace LLRP.FaultRun;

/// <summary>
/// A request body sent in two writes, with its Content-Length or without one: over HTTP/2 the proxy then frames it
/// itself toward an HTTP/1.1 destination.
/// </summary>
internal sealed class TwoWritesContent(byte[] body, bool sized) : HttpContent
{
    protected override async Task SerializeToStreamAsync(Stream stream, System.Net.TransportContext? context)
    {
        var half = body.Length / 2;
        await stream.WriteAsync(body.AsMemory(0, half));
        await stream.FlushAsync();
        await stream.WriteAsync(body.AsMemory(half));
    }

    protected override bool TryComputeLength(out long length)
    {
        length = body.Length;
        return sized;
    }
}
