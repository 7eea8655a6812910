using System.IO.Pipelines;

namespace LLRP.Tests.Upstream;

/// <summary>Two ends of an in-memory connection: what the proxy reads the downstream writes, and the reverse.</summary>
internal sealed class PipePair
{
    private readonly Pipe _toProxy = new();
    private readonly Pipe _toDownstream = new();

    public IDuplexPipe Proxy => new End(_toProxy.Reader, _toDownstream.Writer);

    public IDuplexPipe Downstream => new End(_toDownstream.Reader, _toProxy.Writer);

    private sealed record End(PipeReader Input, PipeWriter Output) : IDuplexPipe;
}
