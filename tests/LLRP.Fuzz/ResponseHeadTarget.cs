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
        return HeadOutcome.Of(input, (ReadOnlySequence<byte> bytes, out int consumed) => ResponseHeadParser.TryParse(bytes, head, MaxHeadSize, out consumed), consumed => HeadDescription.Of(head, consumed));
    }
}
