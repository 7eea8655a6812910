using System.Buffers;
using System.IO.Pipelines;
using LLRP.ClientSide;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// A response body for an HTTP/2 client's stream: written to the stream's <see cref="PipeWriter"/> (HTTP/2 frames its
/// own DATA), each read's bytes counted by <paramref name="written"/>, a flush cancelled by the client's reset.
/// </summary>
internal readonly struct StreamResponseBodySink(PipeWriter output, Action<long> written, CancellationToken clientAborted) : IResponseBodySink
{
    public bool FlushDue => false;

    public async ValueTask<bool> FlushAsync()
    {
        try
        {
            return !(await output.FlushAsync(clientAborted)).IsCanceled;
        }
        catch (Exception e) when (e is OperationCanceledException || ClientResponseWriter.IsConnectionFailure(e))
        {
            return false;
        }
    }

    public ValueTask<bool> WriteAsync(ReadOnlyMemory<byte> bytes)
    {
        output.Write(bytes.Span);
        written(bytes.Length);
        return ValueTask.FromResult(true);
    }

    public void End()
    {
    }
}
