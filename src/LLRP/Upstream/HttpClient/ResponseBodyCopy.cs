using System.Buffers;
using LLRP.Diagnostics;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// The one loop that copies a response body from HttpClient's stream to a client, for every mode that reads one: read by
/// read through a pooled buffer, the client's output flushed whenever the destination has nothing ready (so the head and
/// what came before leave while the destination is waited for: the destination may be waiting for the client, which may
/// be waiting for the head, in a full-duplex exchange) and whenever the sink says a flush is due.
/// </summary>
internal static class ResponseBodyCopy
{
    /// <returns>None; ResponseBodyFailed when the destination failed mid-body; ClientAborted when the client went away.</returns>
    public static async ValueTask<ForwarderError> CopyAsync<TSink>(Stream source, TSink sink, int bufferSize, CancellationToken clientAborted)
        where TSink : struct, IResponseBodySink
    {
        var buffer = ArrayPool<byte>.Shared.Rent(bufferSize);
        try
        {
            while (true)
            {
                var read = source.ReadAsync(buffer, clientAborted);
                if ((!read.IsCompleted || sink.FlushDue) && !await sink.FlushAsync())
                {
                    // The read may still fill the buffer: it is torn down and waited for before the buffer goes back.
                    await source.DisposeAsync();
                    await HttpClientExchange.ObserveAsync(read);
                    return ForwarderError.ClientAborted;
                }

                int count;
                try
                {
                    count = await read;
                }
                catch (Exception e) when (HttpClientExchange.IsResponseReadFailure(e))
                {
                    return clientAborted.IsCancellationRequested ? ForwarderError.ClientAborted : ForwarderError.ResponseBodyFailed;
                }

                if (count == 0)
                {
                    sink.End();
                    return ForwarderError.None;
                }

                if (!await sink.WriteAsync(buffer.AsMemory(0, count)))
                {
                    return ForwarderError.ClientAborted;
                }
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
