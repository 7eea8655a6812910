using LLRP.Diagnostics;

namespace LLRP.Upstream;

/// <summary>How forwarding a batch ended.</summary>
/// <param name="Completed">Responses forwarded to their end, in order.</param>
/// <param name="Error">None, or why the next response could not be forwarded: reported once by the session.</param>
/// <param name="Started">That failed response had started, so the client connection can only be aborted.</param>
/// <param name="CloseClient">The client connection ends after these responses.</param>
/// <param name="Tunnel">
/// The destination answered the batch's upgrade request with <c>101 Switching Protocols</c>, which was written to the
/// client: the session relays this tunnel until it ends, then closes the client connection.
/// </param>
internal readonly record struct ForwardResult(int Completed, ForwarderError Error, bool Started, bool CloseClient, IUpstreamTunnel? Tunnel = null)
{
    public static ForwardResult Failed(int completed, ForwarderError error, bool started) => new(completed, error, started, CloseClient: true);

    /// <summary>The batch's only request, an upgrade, was answered with a <c>101</c>: the connection is now <paramref name="tunnel"/>.</summary>
    public static ForwardResult Switched(IUpstreamTunnel tunnel) => new(1, ForwarderError.None, Started: true, CloseClient: true, tunnel);
}
