using System.IO.Pipelines;

namespace LLRP.Transport.Epoll;

/// <summary>The two ends a connection gives its user: what arrived, and where to write what leaves.</summary>
internal sealed class DuplexPipe(PipeReader input, PipeWriter output) : IDuplexPipe
{
    public PipeReader Input { get; } = input;

    public PipeWriter Output { get; } = output;
}
