using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;

namespace LLRP.Http2.Codec;

/// <summary>
/// A field block whose header list size (RFC 9113 §6.5.2: the sum of each field's name and value lengths plus 32) is
/// above the limit. Thrown only after the whole block was decoded, so the dynamic table stays in step and the server
/// may answer the stream (431) instead of closing the connection.
/// </summary>
internal sealed class HeaderListTooLargeException(long headerListSize, int maxHeaderListSize)
    : Exception($"The header list size {headerListSize} is above the limit of {maxHeaderListSize} (RFC 9113 §6.5.2).")
{
    public long HeaderListSize { get; } = headerListSize;

    public int MaxHeaderListSize { get; } = maxHeaderListSize;

    [DoesNotReturn]
    [StackTraceHidden]
    public static void Throw(long headerListSize, int maxHeaderListSize) => throw new HeaderListTooLargeException(headerListSize, maxHeaderListSize);
}
