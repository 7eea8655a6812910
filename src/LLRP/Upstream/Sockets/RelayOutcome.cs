using LLRP.Diagnostics;

namespace LLRP.Upstream.Sockets;

/// <summary>How relaying one response ended.</summary>
/// <param name="Error">None, or what failed.</param>
/// <param name="Started">Bytes of the final response were written to the client, so an error can only abort.</param>
/// <param name="CloseClient">The client connection ends after this response.</param>
/// <param name="UpstreamReusable">The upstream connection is at a message boundary and may carry the next request.</param>
/// <param name="UpstreamAnnouncedClose">
/// The response said the destination closes after it (<c>Connection: close</c>, or HTTP/1.0 without keep-alive), so it
/// processed no request sent after this one (RFC 9112 §9.6).
/// </param>
/// <param name="Switched">The response was <c>101 Switching Protocols</c> to an upgrade request: the connection is now a tunnel.</param>
internal readonly record struct RelayOutcome(ForwarderError Error, bool Started, bool CloseClient, bool UpstreamReusable, bool UpstreamAnnouncedClose, bool Switched = false)
{
    public static RelayOutcome Failed(ForwarderError error, bool started) => new(error, started, true, false, false);

    public static RelayOutcome SwitchedProtocols { get; } = new(ForwarderError.None, Started: true, CloseClient: true, UpstreamReusable: false, UpstreamAnnouncedClose: false, Switched: true);
}
