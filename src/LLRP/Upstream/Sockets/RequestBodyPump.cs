using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using LLRP.ClientSide;
using LLRP.Http1;
using LLRP.Tasks;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// Streams a request body from the client to the upstream connection in canonical framing (Content-Length as is,
/// chunked decoded and re-chunked), with back-pressure both ways: the upstream output is flushed whenever the next
/// piece is not in yet, and at least every <see cref="MaxUnflushed"/> bytes.
/// </summary>
internal static class RequestBodyPump
{
    private const int MaxPiece = 64 * 1024;
    /// <summary>The most body bytes written upstream between two flushes.</summary>
    internal const int MaxUnflushed = 64 * 1024;

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public static async ValueTask<BodyPumpResult> PumpAsync(ClientRequestBody body, UpstreamConnection upstream)
    {
        var output = upstream.Output;
        var unflushed = 0L;
        var read = body.ReadAsync(MaxPiece);
        try
        {
            while (true)
            {
                if ((!read.IsCompleted || unflushed >= MaxUnflushed) && unflushed > 0)
                {
                    unflushed = 0;
                    if (!await FlushAsync(output))
                    {
                        body.CancelPendingRead();
                        await ObserveAsync(read);
                        return BodyPumpResult.UpstreamWriteFailed;
                    }
                }

                var piece = await read;
                if (piece.IsEmpty)
                {
                    if (body.IsChunked)
                    {
                        ChunkedEncoding.WriteLastChunk(output);
                    }

                    return await FlushAsync(output) ? BodyPumpResult.Completed : BodyPumpResult.UpstreamWriteFailed;
                }

                ChunkedEncoding.WriteBodyPiece(output, piece, body.IsChunked);
                unflushed += piece.Length;
                read = body.ReadAsync(MaxPiece);
            }
        }
        catch (OperationCanceledException)
        {
            return BodyPumpResult.Cancelled;
        }
        catch (HttpMessageException)
        {
            upstream.Abort();
            return BodyPumpResult.Rejected;
        }
        catch (Exception e) when (ClientResponseWriter.IsConnectionFailure(e))
        {
            upstream.Abort();
            return BodyPumpResult.ClientAborted;
        }
    }

    /// <summary>False when the upstream no longer takes the body; its response may still come, so the connection is left to the response side.</summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    internal static async ValueTask<bool> FlushAsync(PipeWriter output)
    {
        try
        {
            return !(await output.FlushAsync()).IsCompleted;
        }
        catch (Exception e) when (ClientResponseWriter.IsConnectionFailure(e))
        {
            return false;
        }
    }

    /// <summary>Waits for a read whose piece is no longer wanted, so nothing is left reading the client input.</summary>
    private static async ValueTask ObserveAsync(ValueTask<ReadOnlySequence<byte>> read)
    {
        try
        {
            await read;
        }
        catch (Exception e) when (e is OperationCanceledException or HttpMessageException || ClientResponseWriter.IsConnectionFailure(e))
        {
            // Cancelled, or the client failed too; the upstream's failure is the one to report.
        }
    }
}
