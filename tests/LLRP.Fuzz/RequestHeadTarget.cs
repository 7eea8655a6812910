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
        try
        {
            if (!RequestHeadParser.TryParse(input, head, Limits, out var consumed))
            {
                return consumed == 0 ? "incomplete" : throw new OracleViolation($"incomplete, yet {consumed} bytes consumed");
            }

            return consumed > 0 && consumed <= input.Length
                ? HeadDescription.Of(head, consumed)
                : throw new OracleViolation($"complete with {consumed} of {input.Length} bytes consumed");
        }
        catch (HttpMessageException e)
        {
            return $"rejected: {e.Reason}";
        }
    }
}
