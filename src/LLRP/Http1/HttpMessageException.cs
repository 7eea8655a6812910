using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using LLRP.Diagnostics;

namespace LLRP.Http1;

/// <summary>A message that is malformed or ambiguous. Thrown by the parsers and codecs only through <see cref="Throw"/>.</summary>
internal sealed class HttpMessageException(RejectionReason reason) : Exception(reason.Describe())
{
    public RejectionReason Reason { get; } = reason;

    [DoesNotReturn]
    [StackTraceHidden]
    public static void Throw(RejectionReason reason) => throw new HttpMessageException(reason);
}
