using BenchmarkDotNet.Attributes;
using LLRP.Http2.Codec;

namespace LLRP.Microbenchmarks;

/// <summary>HPACK decoding of a curl/h2load-style request block (RFC 7541): Huffman literals, then the indexed repeat.</summary>
[MemoryDiagnoser]
public class HpackDecodingBenchmarks
{
    /// <summary>GET http://localhost:8080/ with user-agent curl/8.5.0 and accept */*, the three literals Huffman-coded and indexed.</summary>
    private static readonly byte[] FirstRequest = Convert.FromHexString("828684418aa0e41d139d09b8f01e077a8825b650c3cbb6b83f5383f963e7");

    /// <summary>The same request once the table holds its three literals: all fields indexed.</summary>
    private static readonly byte[] RepeatedRequest = Convert.FromHexString("828684c0bfbe");

    private readonly HpackDecoder _decoder = new(4096, 16 * 1024);

    [GlobalSetup]
    public void Setup() => DecodeHuffmanRequest();

    [Benchmark]
    public int DecodeHuffmanRequest()
    {
        var total = 0;
        _decoder.Decode(FirstRequest, new HeaderLengthSink(ref total));
        return total;
    }

    [Benchmark]
    public int DecodeIndexedRequest()
    {
        var total = 0;
        _decoder.Decode(RepeatedRequest, new HeaderLengthSink(ref total));
        return total;
    }

}
