using System.Buffers;
using BenchmarkDotNet.Attributes;
using LLRP.Http1;

namespace LLRP.Microbenchmarks;

/// <summary>A 64 KiB body in 4 KiB chunks: decoding, and re-encoding what was decoded.</summary>
[MemoryDiagnoser]
public class ChunkedBenchmarks
{
    private const int ChunkSize = 4096;
    private readonly ArrayBufferWriter<byte> _output = new(128 * 1024);
    private ReadOnlySequence<byte> _chunked;
    private ReadOnlySequence<byte> _plain;

    [GlobalSetup]
    public void Setup()
    {
        var data = new byte[64 * 1024];
        new Random(1).NextBytes(data);
        _plain = new ReadOnlySequence<byte>(data);
        var encoded = new ArrayBufferWriter<byte>();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(encoded, 0);
        for (var offset = 0; offset < data.Length; offset += ChunkSize)
        {
            ChunkedEncoding.WriteChunk(ref writer, _plain.Slice(offset, ChunkSize));
        }

        ChunkedEncoding.WriteLastChunk(ref writer);
        writer.Commit();
        _chunked = new ReadOnlySequence<byte>(encoded.WrittenMemory);
    }

    [Benchmark]
    public long Decode()
    {
        var decoder = new ChunkedDecoder(4096, 4096);
        var input = _chunked;
        long total = 0;
        while (decoder.Decode(input, out var consumed, out var data) == ChunkedDecodeStatus.Data)
        {
            total += data.Length;
            input = input.Slice(consumed);
        }

        return total;
    }

    [Benchmark]
    public int Encode()
    {
        _output.ResetWrittenCount();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(_output, 0);
        for (var offset = 0; offset < _plain.Length; offset += ChunkSize)
        {
            ChunkedEncoding.WriteChunk(ref writer, _plain.Slice(offset, ChunkSize));
        }

        ChunkedEncoding.WriteLastChunk(ref writer);
        writer.Commit();
        return _output.WrittenCount;
    }
}
