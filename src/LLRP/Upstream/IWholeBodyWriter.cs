using System.Buffers;

namespace LLRP.Upstream;

/// <summary>
/// A response body writer that can take a whole body at once and end the response with it (LLRP's own HTTP/2 server:
/// HEADERS and DATA framed straight from the forwarder's buffer, with no copy held for a later flush).
/// </summary>
internal interface IWholeBodyWriter
{
    /// <summary>True when <paramref name="body"/>, the whole response body, was taken and ends the response; false when nothing was and it is to be written as usual.</summary>
    bool TryWriteWhole(in ReadOnlySequence<byte> body);
}
