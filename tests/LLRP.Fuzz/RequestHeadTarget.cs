using System.Buffers;
using LLRP.Http1;

namespace LLRP.Fuzz;

/// <summary>
/// <see cref="RequestHeadParser"/> over the message whole and segmented, with limits small enough for short inputs to
/// reach them: the outcome (incomplete, rejected with a reason, or the parsed head) must be the same both ways.
/// </summary>
internal static class RequestHeadTarget
{
    private static readonly RequestLimits Limits = new(MaxRequestLineSize: 256, MaxHeadersTotalSize: 1024, MaxHeaderCount: 16);

    public static void Run(byte[] bytes)
    {
        var input = FuzzInput.From(bytes);
        OracleViolation.ThrowIfDifferent(Parse(input.Whole), Parse(input.Segmented(0, input.Message.Length)), input.SegmentLength);
    }

    private static string Parse(ReadOnlySequence<byte> input)
    {
        var head = new RequestHead();
        return HeadOutcome.Of(input, (ReadOnlySequence<byte> bytes, out int consumed) => RequestHeadParser.TryParse(bytes, head, Limits, out consumed), consumed => HeadDescription.Of(head, consumed));
    }
}
