using LLRP.Diagnostics;

namespace LLRP.Upstream.Sockets;

/// <summary>Carries a classified upstream failure from the I/O code to the place that reports it.</summary>
internal sealed class UpstreamException(ForwarderError error, Exception? inner = null)
    : Exception(error.ToString(), inner)
{
    public ForwarderError Error { get; } = error;
}
