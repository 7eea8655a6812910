using System.Buffers;
using LLRP.Http1;

namespace LLRP.Fuzz;

/// <summary>
/// <see cref="ResponseHeadParser"/> over the message whole and segmented, with a head limit small enough for short
/// inputs to reach it: the outcome (incomplete, rejected with a reason, or the parsed head) must be the same both ways.
/// </summary>
internal static class ResponseHeadTarget
{
    private const int MaxHeadSize = 1024;

    public static void Run(byte[] bytes)
    {
        var input = FuzzInput.From(bytes);
        OracleViolation.ThrowIfDifferent(Parse(input.Whole), Parse(input.Segmented(0, input.Message.Length)), input.SegmentLength);
    }

    private static string Parse(ReadOnlySequence<byte> input)
    {
        var head = new ResponseHead();
        try
        {
            if (!ResponseHeadParser.TryParse(input, head, MaxHeadSize, out var consumed))
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
