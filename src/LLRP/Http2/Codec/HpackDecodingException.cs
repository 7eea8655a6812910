using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;

namespace LLRP.Http2.Codec;

/// <summary>
/// A field block HPACK cannot decode (RFC 7541): a connection error of type COMPRESSION_ERROR (RFC 9113 §4.3), since the
/// decoder's dynamic table is no longer in step with the peer's encoder.
/// </summary>
internal sealed class HpackDecodingException(string message) : Exception(message)
{
    [DoesNotReturn]
    [StackTraceHidden]
    public static void Throw(string message) => throw new HpackDecodingException(message);
}
