using System.Buffers;
using LLRP.Upstream.Sockets;

namespace LLRP.Upstream.HttpClient;

internal abstract partial class FrontEndConnection
{
    private const int ResponseBufferSize = 16 * 1024;

    /// <summary>Most body bytes written to the client without a flush, so a downstream faster than the client meets back-pressure.</summary>
    private const int MaxUnflushedBody = 64 * 1024;

    /// <summary>
    /// Streams a response body from HttpClient's content stream into the client output through a pooled buffer, chunked
    /// or as is. The client output is flushed while waiting for the downstream (so the read and write sides overlap) and
    /// every <see cref="MaxUnflushedBody"/> bytes; a small body already buffered leaves with the rest of the batch, in one flush.
    /// </summary>
    /// <returns>None; ResponseBodyFailed when the downstream failed mid-body; ClientAborted when the client went away.</returns>
    protected async ValueTask<ForwarderError> CopyResponseBodyAsync(Stream source, ResponseFraming framing)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(ResponseBufferSize);
        var unflushed = 0;
        try
        {
            while (true)
            {
                var read = source.ReadAsync(buffer);
                if (!read.IsCompleted || unflushed >= MaxUnflushedBody)
                {
                    unflushed = 0;
                    if (!await FlushClientAsync())
                    {
                        await source.DisposeAsync();
                        await ObserveAsync(read);
                        return ForwarderError.ClientAborted;
                    }
                }

                int count;
                try
                {
                    count = await read;
                }
                catch (Exception e) when (e is IOException or HttpRequestException or ObjectDisposedException)
                {
                    return ForwarderError.ResponseBodyFailed;
                }

                if (count == 0)
                {
                    framing.WriteEnd(ClientOutput);
                    return ForwarderError.None;
                }

                framing.WriteBody(ClientOutput, buffer.AsSpan(0, count));
                unflushed += count;
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>Waits for a read whose result is no longer wanted, so the buffer it fills can go back to the pool.</summary>
    private static async ValueTask ObserveAsync(ValueTask<int> read)
    {
        try
        {
            await read;
        }
        catch (Exception e) when (e is IOException or HttpRequestException or ObjectDisposedException or OperationCanceledException)
        {
            // The dispose tore the downstream connection down; nothing more was wanted from it.
        }
    }
}
