using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using LLRP.Http1;
using LLRP.Upstream.Sockets;

namespace LLRP.Proxy;

internal sealed partial class ClientConnection
{
    /// <summary>
    /// Copies exactly <paramref name="length"/> bytes. Data already read is copied without a flush (the batch
    /// flushes once); the client output is flushed only before waiting for more upstream data.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<ResponseOutcome> CopyContentLengthBodyAsync(ReadOnlySequence<byte> data, bool completed, long length, ResponseOutcome outcome)
    {
        var input = _upstream!.Input;
        var remaining = length;
        while (true)
        {
            var take = Math.Min(remaining, data.Length);
            WriteToClient(data.Slice(0, take));
            remaining -= take;
            input.AdvanceTo(data.GetPosition(take));
            if (remaining == 0)
            {
                return outcome;
            }

            if (completed)
            {
                return ResponseOutcome.Failed(ForwarderError.ResponseBodyFailed, started: true);
            }

            if (await ReadMoreAsync(input) is not { } next)
            {
                return ResponseOutcome.Failed(ForwarderError.ResponseBodyFailed, started: true);
            }

            (data, completed) = (next.Buffer, next.IsCompleted);
        }
    }

    /// <summary>Decodes the chunked body and re-chunks it for the client, or sends it plain (HTTP/1.0 client, close-delimited).</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<ResponseOutcome> CopyChunkedBodyAsync(ReadOnlySequence<byte> data, bool completed, bool chunkedToClient, ResponseOutcome outcome)
    {
        var input = _upstream!.Input;
        var decoder = new ChunkedDecoder(_options.MaxChunkLineSize, _options.MaxResponseHeadersTotalSize);
        while (true)
        {
            ChunkedDecodeStatus status;
            try
            {
                status = TranscodeToClient(ref decoder, ref data, chunkedToClient);
            }
            catch (HttpMessageException)
            {
                input.AdvanceTo(data.Start);
                return ResponseOutcome.Failed(ForwarderError.ResponseBodyFailed, started: true);
            }

            input.AdvanceTo(data.Start);
            if (status == ChunkedDecodeStatus.Completed)
            {
                return outcome;
            }

            if (completed || await ReadMoreAsync(input) is not { } next)
            {
                return ResponseOutcome.Failed(ForwarderError.ResponseBodyFailed, started: true);
            }

            (data, completed) = (next.Buffer, next.IsCompleted);
        }
    }

    /// <summary>Copies until the upstream closes (RFC 9112 §6.3 rule 8), chunked for an HTTP/1.1 client so its connection can persist.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<ResponseOutcome> CopyCloseDelimitedBodyAsync(ReadOnlySequence<byte> data, bool completed, bool chunkedToClient, ResponseOutcome outcome)
    {
        var input = _upstream!.Input;
        while (true)
        {
            if (chunkedToClient)
            {
                var writer = new BufferWriter<PipeWriter>(_clientOutput, 32);
                ChunkedEncoding.WriteChunk(ref writer, data);
                if (completed)
                {
                    ChunkedEncoding.WriteLastChunk(ref writer);
                }

                writer.Commit();
            }
            else
            {
                WriteToClient(data);
            }

            input.AdvanceTo(data.End);
            if (completed)
            {
                return outcome;
            }

            if (await ReadMoreAsync(input) is not { } next)
            {
                return ResponseOutcome.Failed(ForwarderError.ResponseBodyFailed, started: true);
            }

            (data, completed) = (next.Buffer, next.IsCompleted);
        }
    }

    /// <summary>Runs the decoder over <paramref name="data"/>, writing what it yields; leaves <paramref name="data"/> at what is not consumed.</summary>
    private ChunkedDecodeStatus TranscodeToClient(ref ChunkedDecoder decoder, ref ReadOnlySequence<byte> data, bool chunkedToClient)
    {
        var writer = new BufferWriter<PipeWriter>(_clientOutput, 32);
        while (true)
        {
            var status = decoder.Decode(data, out var consumed, out var chunk);
            data = data.Slice(consumed);
            if (status == ChunkedDecodeStatus.Data)
            {
                if (chunkedToClient)
                {
                    ChunkedEncoding.WriteChunk(ref writer, chunk);
                }
                else
                {
                    writer.Write(chunk);
                }

                continue;
            }

            if (status == ChunkedDecodeStatus.Completed && chunkedToClient)
            {
                ChunkedEncoding.WriteLastChunk(ref writer);
            }

            writer.Commit();
            return status;
        }
    }

    private void WriteToClient(in ReadOnlySequence<byte> data)
    {
        foreach (var segment in data)
        {
            _clientOutput.Write(segment.Span);
        }
    }

    /// <summary>Flushes what the client has been given, then waits for more upstream data; null when either side failed.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<ReadResult?> ReadMoreAsync(PipeReader input)
    {
        if (!await FlushClientAsync())
        {
            return null;
        }

        try
        {
            return await input.ReadAsync();
        }
        catch (Exception e) when (IsConnectionFailure(e))
        {
            return null;
        }
    }
}
