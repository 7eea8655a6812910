using System.Buffers;
using System.Text;
using BenchmarkDotNet.Attributes;
using LLRP.Configuration;
using LLRP.Http1;

namespace LLRP.Microbenchmarks;

/// <summary>Re-emission of parsed heads with hop-by-hop filtering, forwarded headers and framing.</summary>
[MemoryDiagnoser]
public class HeadWritingBenchmarks
{
    private readonly ArrayBufferWriter<byte> _output = new(8192);
    private readonly RequestHead _request = new();
    private readonly ResponseHead _response = new();
    private RequestHeadWriter _writer = null!;

    [GlobalSetup]
    public void Setup()
    {
        var downstream = DownstreamEndpoint.TryParse("http://127.0.0.1:8081")!;
        var options = new ProxyOptions { Downstreams = [downstream] };
        _writer = new RequestHeadWriter(downstream, options, Encoding.ASCII.GetBytes("127.0.0.1"));
        var limits = RequestLimits.From(options);
        RequestHeadParser.TryParse(new ReadOnlySequence<byte>(Messages.BrowserRequest), _request, limits, out _);
        ResponseHeadParser.TryParse(new ReadOnlySequence<byte>(Messages.Response), _response, 64 * 1024, out _);
    }

    [Benchmark]
    public int WriteRequestHead()
    {
        _output.ResetWrittenCount();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(_output, 1024);
        _writer.Write(ref writer, _request);
        writer.Commit();
        return _output.WrittenCount;
    }

    [Benchmark]
    public int WriteResponseHead()
    {
        _output.ResetWrittenCount();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(_output, 1024);
        ResponseHeadWriter.Write(ref writer, _response, BodyFraming.ContentLength, close: false, http10KeepAlive: false);
        writer.Commit();
        return _output.WrittenCount;
    }
}
