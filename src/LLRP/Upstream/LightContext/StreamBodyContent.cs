using System.Buffers;
using LLRP.ClientSide;
using LLRP.Upstream.HttpClient;

namespace LLRP.Upstream.LightContext;

/// <summary>
/// The httpclient-httpcontext mode's request content: copies <c>HttpRequest.Body</c> to HttpClient through a pooled buffer.
/// <paramref name="body"/> is what that stream reads underneath, for cancelling a read when the content must stop.
/// </summary>
internal sealed class StreamBodyContent(ClientRequestBody body) : ForwardedContent(body)
{
    private const int BufferSize = 64 * 1024;

    /// <summary>The stream to send, set for each request.</summary>
    public Stream Source { get; set; } = Stream.Null;

    /// <summary>Copies each read; HttpClient's buffer is flushed while waiting for the client, as in the httpclient mode.</summary>
    protected override async Task CopyBodyAsync(Stream destination, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
        try
        {
            while (true)
            {
                var read = Source.ReadAsync(buffer, cancellationToken);
                var count = read.IsCompleted ? await read : await FlushWhileReadingAsync(destination, read, cancellationToken);
                if (count == 0)
                {
                    return;
                }

                await destination.WriteAsync(buffer.AsMemory(0, count), cancellationToken);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
