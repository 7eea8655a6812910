using System.IO.Pipelines;

namespace LLRP.Upstream;

/// <summary>The destination's end of a tunnel, after it answered an upgrade with <c>101 Switching Protocols</c>.</summary>
internal interface IUpstreamTunnel : IUpstreamTunnelEnd, IAsyncDisposable
{
    /// <summary>What the destination sends (bytes it sent after the <c>101</c> head first), and where to write to it.</summary>
    IDuplexPipe Transport { get; }

    /// <summary>
    /// Completing <see cref="IDuplexPipe.Output"/> only ends what is sent to the destination (a TCP half-close), so its
    /// answer still arrives; otherwise it ends the whole connection.
    /// </summary>
    bool HalfCloses { get; }
}
