using System.Buffers;
using System.Net;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// The body of an HTTP/2 client's request stream, sent to HttpClient as it arrives: each piece read is written at once,
/// and flushed whenever the client has nothing more ready, so a streaming call (gRPC client streaming) reaches the
/// destination message by message. Never buffered; its length is what <see cref="HttpContent.Headers"/> says (none:
/// chunked to an HTTP/1.1 destination, DATA frames to an HTTP/2 one).
/// The body can be read from the client once: when HttpClient sends the request again (an HTTP/2 destination refused
/// the stream, RFC 9113 §8.7) after part of the body was taken, sending the rest would make an incomplete message look
/// whole, so that attempt fails instead; an attempt that took nothing is sent again whole.
/// </summary>
/// <param name="source">The client's request body.</param>
/// <param name="clientAborted">Fires when the client resets its stream.</param>
internal sealed class StreamRequestContent(Stream source, CancellationToken clientAborted) : HttpContent
{
    private const int BufferSize = 16 * 1024;

    private bool _taken;

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        if (_taken)
        {
            throw new IOException("The request body was sent in part to a destination that refused it; it cannot be sent again.");
        }

        using var both = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, clientAborted);
        var buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
        try
        {
            while (true)
            {
                var read = source.ReadAsync(buffer, both.Token);
                if (!read.IsCompleted)
                {
                    await stream.FlushAsync(both.Token);
                }

                var count = await read;
                if (count == 0)
                {
                    return;
                }

                _taken = true;

                await stream.WriteAsync(buffer.AsMemory(0, count), both.Token);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context)
        => SerializeToStreamAsync(stream, context, CancellationToken.None);

    protected override bool TryComputeLength(out long length)
    {
        length = 0;
        return false;
    }
}
