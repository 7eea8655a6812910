namespace LLRP.FaultRun;

/// <summary>
/// A request body whose Content-Length goes with the head but of which only the first half is sent: then
/// <paramref name="cancel"/> is cancelled, and over HTTP/2 the client resets the stream (RST_STREAM).
/// </summary>
internal sealed class HalfThenResetContent(byte[] body, CancellationTokenSource cancel) : HttpContent
{
    protected override async Task SerializeToStreamAsync(Stream stream, System.Net.TransportContext? context)
    {
        await stream.WriteAsync(body.AsMemory(0, body.Length / 2));
        await stream.FlushAsync();
        await cancel.CancelAsync();
        cancel.Token.ThrowIfCancellationRequested();
    }

    protected override bool TryComputeLength(out long length)
    {
        length = body.Length;
        return true;
    }
}
