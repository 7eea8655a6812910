using System.Buffers;
using BenchmarkDotNet.Attributes;
using LLRP.Http1;

namespace LLRP.Microbenchmarks;

[MemoryDiagnoser]
public class HeadParsingBenchmarks
{
    private readonly RequestHead _request = new();
    private readonly ResponseHead _response = new();
    private readonly RequestLimits _limits = Messages.Limits;
    private readonly ReadOnlySequence<byte> _wrk = new(Messages.WrkRequest);
    private readonly ReadOnlySequence<byte> _browser = new(Messages.BrowserRequest);
    private readonly ReadOnlySequence<byte> _responseBytes = new(Messages.Response);

    [Benchmark]
    public int ParseWrkRequest()
    {
        RequestHeadParser.TryParse(_wrk, _request, _limits, out var consumed);
        return consumed;
    }

    [Benchmark]
    public int ParseBrowserRequest()
    {
        RequestHeadParser.TryParse(_browser, _request, _limits, out var consumed);
        return consumed;
    }

    [Benchmark]
    public int ParseResponse()
    {
        ResponseHeadParser.TryParse(_responseBytes, _response, 64 * 1024, out var consumed);
        return consumed;
    }
}
