using System.Buffers;
using LLRP.Http1;

namespace LLRP.Fuzz;

/// <summary>
/// What one parse of a head came to, as text the whole and the segmented parse must agree on: incomplete (nothing
/// consumed), rejected with its reason, or the parsed head as <paramref name="describe"/> tells it.
/// </summary>
internal static class HeadOutcome
{
    /// <summary>A head parser: false while the head is incomplete; on success, the bytes of the head.</summary>
    public delegate bool Parser(ReadOnlySequence<byte> input, out int consumed);

    public static string Of(ReadOnlySequence<byte> input, Parser parse, Func<int, string> describe)
    {
        try
        {
            if (!parse(input, out var consumed))
            {
                return consumed == 0 ? "incomplete" : throw new OracleViolation($"incomplete, yet {consumed} bytes consumed");
            }

            return consumed > 0 && consumed <= input.Length
                ? describe(consumed)
                : throw new OracleViolation($"complete with {consumed} of {input.Length} bytes consumed");
        }
        catch (HttpMessageException e)
        {
            return $"rejected: {e.Reason}";
        }
    }
}
