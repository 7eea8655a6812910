using System.Buffers;

namespace LLRP.Tests.Infrastructure;

/// <summary>The split helper itself: the splits are real, complete and exhaustive, so the parser tests are not vacuous.</summary>
public sealed class SegmentedTests
{
    [Fact]
    public void Create_SplitPoints_OneSegmentPerPiece()
    {
        var sequence = Segmented.Create(Text.Bytes("abcdef"), 1, 4);

        Assert.Equal(["a", "bcd", "ef"], Pieces(sequence));
        Assert.Equal("abcdef", Text.Of(sequence.ToArray()));
    }

    [Fact]
    public void Create_NoSplitPoint_SingleSegment()
    {
        var sequence = Segmented.Create(Text.Bytes("abc"));

        Assert.True(sequence.IsSingleSegment);
        Assert.Equal("abc", Text.Of(sequence.FirstSpan));
    }

    [Fact]
    public void SplitPoints_ShortMessage_EverySingleAndPair()
    {
        var splits = Segmented.SplitPoints(5).Select(points => string.Join(",", points)).ToList();

        Assert.Equal(["", "1", "2", "3", "4", "1,2", "1,3", "1,4", "2,3", "2,4", "3,4"], splits);
    }

    [Fact]
    public void SplitPoints_LongMessage_SinglesOnly()
        => Assert.Equal(1000, Segmented.SplitPoints(1000).Count());

    private static List<string> Pieces(ReadOnlySequence<byte> sequence)
    {
        var pieces = new List<string>();
        foreach (var memory in sequence)
        {
            pieces.Add(Text.Of(memory.Span));
        }

        return pieces;
    }
}
