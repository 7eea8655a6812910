using System.IO.Pipelines;
using LLRP.Configuration;
using LLRP.Upstream.Sockets;

namespace LLRP.Tests.Upstream.Sockets;

/// <summary>Gives the proxy one upstream connection over in-memory pipes; the test plays the downstream on <see cref="Downstream"/>.</summary>
internal sealed class PipeOrigin : IUpstreamConnectionFactory
{
    private readonly PipePair _pipes = new();

    public IDuplexPipe Downstream => _pipes.Downstream;

    public ValueTask<UpstreamConnection> ConnectAsync(DestinationEndpoint downstream, ReadOnlyMemory<byte> proxyHeader)
        => ValueTask.FromResult(new UpstreamConnection(new LazyAbortConnection(_pipes.Proxy), downstream));
}
