using System.IO.Pipelines;

namespace LLRP.Upstream;

/// <summary>The two ends a transport gives its user: what arrives, and where to write what leaves.</summary>
internal sealed class TransportPipes(PipeReader input, PipeWriter output) : IDuplexPipe
{
    public PipeReader Input { get; } = input;

    public PipeWriter Output { get; } = output;
}
