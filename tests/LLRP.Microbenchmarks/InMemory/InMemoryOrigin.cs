using System.Buffers;
using System.IO.Pipelines;
using LLRP.Configuration;
using LLRP.Upstream.Sockets;

namespace LLRP.Microbenchmarks.InMemory;

/// <summary>An origin on in-memory pipes that answers every request head with the same response.</summary>
internal sealed class InMemoryOrigin(byte[] response, bool inline) : IUpstreamConnectionFactory
{
    public ValueTask<UpstreamConnection> ConnectAsync(DestinationEndpoint downstream, ReadOnlyMemory<byte> proxyHeader)
    {
        var (proxySide, originSide) = DuplexPipe.CreatePair(inline);
        _ = ServeAsync(originSide);
        return ValueTask.FromResult(new UpstreamConnection(new InMemoryConnection(proxySide), downstream));
    }

    private async Task ServeAsync(IDuplexPipe pipe)
    {
        while (true)
        {
            var result = await pipe.Input.ReadAsync();
            var buffer = result.Buffer;
            var answered = false;
            while (TryReadHead(ref buffer))
            {
                pipe.Output.Write(response);
                answered = true;
            }

            pipe.Input.AdvanceTo(buffer.Start, buffer.End);
            if (answered)
            {
                await pipe.Output.FlushAsync();
            }

            if (result.IsCompleted)
            {
                return;
            }
        }
    }

    private static bool TryReadHead(ref ReadOnlySequence<byte> buffer)
    {
        var reader = new SequenceReader<byte>(buffer);
        if (!reader.TryReadTo(out ReadOnlySequence<byte> _, "\r\n\r\n"u8))
        {
            return false;
        }

        buffer = buffer.Slice(reader.Position);
        return true;
    }
}
