using System.Text;
using LLRP.Http2.Codec;

namespace LLRP.Tests.Http2.Codec;

/// <summary>The static table's name lookup (RFC 7541 Appendix A), which an encoded field's indexed name comes from (§6.2).</summary>
public sealed class HpackStaticTableTests
{
    /// <summary>Every name of the table is found at the first entry that has it, whatever its case.</summary>
    [Fact]
    public void IndexOfName_EveryEntry_LowestIndexOfItsName_AppendixA()
    {
        for (var index = 1; index <= HpackStaticTable.Count; index++)
        {
            var name = HpackStaticTable.Name(index).ToArray();
            var first = Enumerable.Range(1, index).First(i => HpackStaticTable.Name(i).SequenceEqual(name));
            Assert.Equal(first, HpackStaticTable.IndexOfName(name));
            Assert.Equal(first, HpackStaticTable.IndexOfName(Encoding.ASCII.GetBytes(Encoding.ASCII.GetString(name).ToUpperInvariant())));
        }
    }

    [Theory]
    [InlineData(":method", 2)]
    [InlineData("content-type", 31)]
    [InlineData("www-authenticate", 61)]
    [InlineData("x-forwarded-for", 0)]
    [InlineData("grpc-status", 0)]
    [InlineData("", 0)]
    [InlineData("access-control-allow-origin-and-more-than-any-name", 0)]
    public void IndexOfName_Names_AppendixA(string name, int expected)
        => Assert.Equal(expected, HpackStaticTable.IndexOfName(Encoding.ASCII.GetBytes(name)));
}
