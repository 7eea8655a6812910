using LLRP.Http2.Codec;

namespace LLRP.Upstream;

/// <summary>
/// A request stream of LLRP's own HTTP/2 server taking its response's status and field lines as bytes, HPACK-encoded as
/// they are given (<see cref="HpackFieldSink"/>), where other servers take strings in <c>HttpResponse.Headers</c>. A
/// forwarder that holds the destination's head as bytes gives it this way; fields added to <c>HttpResponse.Headers</c>
/// still follow them.
/// </summary>
internal interface IResponseFieldLinesFeature
{
    /// <summary>Sets the response's status and starts its field lines anew; before the response starts.</summary>
    /// <returns>Where the field lines go, until the response starts.</returns>
    HpackFieldSink StartFieldLines(int status);
}
