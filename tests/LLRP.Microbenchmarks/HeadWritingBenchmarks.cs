using System.Buffers;
using System.Text;
using BenchmarkDotNet.Attributes;
using LLRP.Configuration;
using LLRP.Http1;
using LLRP.Http1.Transforms;
using LLRP.Proxy;

namespace LLRP.Microbenchmarks;

/// <summary>Re-emission of parsed heads with hop-by-hop filtering, forwarded headers and framing.</summary>
[MemoryDiagnoser]
public class HeadWritingBenchmarks
{
    private readonly ArrayBufferWriter<byte> _output = new(8192);
    private readonly RequestHead _request = new();
    private readonly ResponseHead _response = new();
    private RequestRewriter _writer = null!;

    [GlobalSetup]
    public void Setup()
    {
        var downstream = DestinationEndpoint.TryParse("http://127.0.0.1:8081")!;
        _writer = new RequestRewriter(downstream.Authority, downstream.PathPrefix, Encoding.ASCII.GetBytes("127.0.0.1"), "http"u8.ToArray(), ClientSessionServices.RewriteSettingsOf(Messages.Defaults));
        RequestHeadParser.TryParse(new ReadOnlySequence<byte>(Messages.BrowserRequest), _request, Messages.Limits, out _);
        ResponseHeadParser.TryParse(new ReadOnlySequence<byte>(Messages.Response), _response, 64 * 1024, out _);
    }

    [Benchmark]
    public int WriteRequestHead()
    {
        _output.ResetWrittenCount();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(_output, 1024);
        _writer.WriteHead(ref writer, _request);
        writer.Commit();
        return _output.WrittenCount;
    }

    [Benchmark]
    public int WriteResponseHead()
    {
        _output.ResetWrittenCount();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(_output, 1024);
        ResponseHeadWriter.Write(ref writer, _response, new ResponseFraming(BodyFraming.ContentLength, Close: false, Http10KeepAlive: false), ResponseTransforms.None);
        writer.Commit();
        return _output.WrittenCount;
    }
}
