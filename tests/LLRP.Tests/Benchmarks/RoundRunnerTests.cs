using LLRP.Bench.Running;

namespace LLRP.Tests.Benchmarks;

public sealed class RoundRunnerTests
{
    [Theory]
    [InlineData(1, "A B C")]
    [InlineData(2, "B C A")]
    [InlineData(3, "C A B")]
    [InlineData(4, "A B C")]
    public void InRound_EachRoundStartsOneContenderFurther(int round, string expected)
    {
        Assert.Equal(expected, string.Join(' ', RoundRunner.InRound(["A", "B", "C"], round)));
    }

    [Fact]
    public void InRound_OneOrNoContender_Unchanged()
    {
        Assert.Equal(["A"], RoundRunner.InRound(["A"], 2));
        Assert.Empty(RoundRunner.InRound(Array.Empty<string>(), 3));
    }
}
